// 8- and 16-byte shared loads/stores of one warp with lanes removed: hardware
// counters vs Nsight Compute's source-page (instrumented) wavefronts and ideal.
#include <cstdio>
#include <cstdint>
#include <vector>
struct P { unsigned w, pitch, mask; bool st; };
template <int W, bool ST>
__global__ void probe(const unsigned *offs, unsigned mask, float *out) {
  __shared__ __align__(16) unsigned char buf[8192];
  unsigned lane = threadIdx.x;
  float r = 0;
  if ((mask >> lane) & 1) {
    unsigned char *p = buf + offs[lane];
    if (W == 8 && ST) *(double *)p = (double)lane;
    if (W == 8 && !ST) { double v; asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v) : "r"((unsigned)__cvta_generic_to_shared(p))); r = (float)v; }
    if (W == 16 && ST) *(float4 *)p = make_float4(lane, 1, 2, 3);
    if (W == 16 && !ST) { float4 v; asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"((unsigned)__cvta_generic_to_shared(p))); r = v.x + v.w; }
    if (W == 4 && ST) *(float *)p = (float)lane;
    if (W == 4 && !ST) r = *(volatile float *)p;
  }
  __syncwarp();
  out[lane] = r + (ST ? (float)buf[lane * 3] : 0.f);
}
int main() {
  std::vector<P> ps;
  unsigned masks8[] = {0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x00ff00ffu, 0x000f000fu, 0x7fff7fffu, 0x3fff3fffu,
                       0x01ff01ffu, 0x00010001u, 0x0000000fu, 0x00ff0000u, 0x0fff0fffu, 0x00ffffffu, 0x1u};
  for (unsigned m : masks8) for (unsigned pitch : {128u, 136u, 256u}) for (bool st : {false, true}) ps.push_back({8, pitch, m, st});
  unsigned masks16[] = {0xffffffffu, 0x000000ffu, 0x0f0f0f0fu, 0x03030303u, 0x00ff00ffu, 0x0000ffffu, 0x000f000fu, 0x1u, 0x11111111u};
  for (unsigned m : masks16) for (bool st : {false, true}) ps.push_back({16, 128, m, st});
  unsigned masks4[] = {0xffffffffu, 0x0000ffffu, 0x000f000fu, 0x1u};
  for (unsigned m : masks4) for (bool st : {false, true}) ps.push_back({4, 64, m, st});
  unsigned *d; float *o; cudaMalloc(&d, 128); cudaMalloc(&o, 128);
  printf("launch,width,pitch,mask,op\n");
  int id = 0;
  for (auto &p : ps) {
    unsigned off[32];
    // lanes in rows: 8-byte: 16 lanes a row (pitch bytes apart); 16-byte: 8 lanes a row; 4-byte: 16 lanes a row
    unsigned per = p.w == 16 ? 8 : 16;
    for (unsigned l = 0; l < 32; ++l) off[l] = (l / per) * p.pitch + (l % per) * p.w;
    cudaMemcpy(d, off, 128, cudaMemcpyHostToDevice);
    if (p.w == 8) { if (p.st) probe<8, true><<<1, 32>>>(d, p.mask, o); else probe<8, false><<<1, 32>>>(d, p.mask, o); }
    if (p.w == 16) { if (p.st) probe<16, true><<<1, 32>>>(d, p.mask, o); else probe<16, false><<<1, 32>>>(d, p.mask, o); }
    if (p.w == 4) { if (p.st) probe<4, true><<<1, 32>>>(d, p.mask, o); else probe<4, false><<<1, 32>>>(d, p.mask, o); }
    printf("%d,%u,%u,0x%08x,%s\n", id++, p.w, p.pitch, p.mask, p.st ? "st" : "ld");
  }
  cudaDeviceSynchronize();
  fprintf(stderr, "%s\n", cudaGetErrorString(cudaGetLastError()));
}
