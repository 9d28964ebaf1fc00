// Data-dependent shared accesses on random keys: histogram atomics, scatter
// store, gather load. One block of 256 threads, 64 requests per warp.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
constexpr int T = 256, IT = 64;
template <int BINS> __global__ void hist_inc(const unsigned *keys, unsigned *out) {
  __shared__ unsigned h[BINS];
  for (int i = threadIdx.x; i < BINS; i += T) h[i] = 0;
  __syncthreads();
  for (int it = 0; it < IT; ++it) atomicAdd(&h[keys[it * T + threadIdx.x]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += T) out[i] = h[i];
}
template <int BINS> __global__ void hist_add(const unsigned *keys, unsigned *out) {
  __shared__ unsigned h[BINS];
  for (int i = threadIdx.x; i < BINS; i += T) h[i] = 0;
  __syncthreads();
  for (int it = 0; it < IT; ++it) { unsigned k = keys[it * T + threadIdx.x]; atomicAdd(&h[k], k * 7 + 1); }
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += T) out[i] = h[i];
}
template <int N> __global__ void scatter(const unsigned *keys, unsigned *out) {
  __shared__ unsigned s[N];
  for (int it = 0; it < IT; ++it) s[keys[it * T + threadIdx.x]] = it + threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % N];
}
template <int N, typename E> __global__ void gather(const unsigned *keys, unsigned *out) {
  __shared__ E s[N];
  for (int i = threadIdx.x; i < N; i += T) s[i] = (E)i;
  __syncthreads();
  E acc = 0;
  for (int it = 0; it < IT; ++it) acc += s[keys[it * T + threadIdx.x]];
  out[threadIdx.x] = (unsigned)acc;
}
int main(int argc, char **argv) {
  unsigned *dk, *dout; cudaMalloc(&dk, IT * T * 4); cudaMalloc(&dout, 4096 * 4);
  std::mt19937 rng(2026);
  std::vector<unsigned> k(IT * T);
  FILE *f = fopen(argc > 1 ? argv[1] : "keys.bin", "wb");
  auto run = [&](const char *name, unsigned range, auto kern) {
    for (auto &x : k) x = rng() % range;
    fwrite(k.data(), 4, k.size(), f);
    cudaMemcpy(dk, k.data(), k.size() * 4, cudaMemcpyHostToDevice);
    kern<<<1, T>>>(dk, dout);
    printf("%s,%u\n", name, range);
  };
  run("hist_inc.256", 256, hist_inc<256>);
  run("hist_inc.32", 32, hist_inc<32>);
  run("hist_inc.1024", 1024, hist_inc<1024>);
  run("hist_add.256", 256, hist_add<256>);
  run("hist_add.32", 32, hist_add<32>);
  run("hist_add.1024", 1024, hist_add<1024>);
  run("scatter.1024", 1024, scatter<1024>);
  run("scatter.64", 64, scatter<64>);
  run("gather.4096", 4096, gather<4096, unsigned>);
  run("gather.64", 64, gather<64, unsigned>);
  run("gather8.512", 512, gather<512, double>);
  fclose(f);
  cudaDeviceSynchronize();
  fprintf(stderr, "%s\n", cudaGetErrorString(cudaGetLastError()));
}
