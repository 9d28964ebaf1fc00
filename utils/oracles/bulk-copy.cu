// Oracle for cp.async.bulk (TMA, UBLKCP.S.G on sm_90): one thread copies
// `bytes` bytes from global memory to shared offset `off`; the block waits on
// an mbarrier. Run under Nsight Compute with the shared-memory wavefront
// metrics (docs/bank-model.md); the table is test/data/h100-bulk-copy.csv.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>
__global__ void probe(const int4 *g, unsigned off, unsigned bytes, unsigned *out) {
  __shared__ __align__(128) unsigned char buf[16384];
  __shared__ __align__(8) unsigned long long mbar;
  unsigned b = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned d = (unsigned)__cvta_generic_to_shared(buf + off);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(d), "l"(g), "r"(bytes), "r"(b) : "memory");
  }
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b) : "memory");
  out[threadIdx.x] = buf[off + threadIdx.x];
}
int main() {
  int4 *g; unsigned *o;
  cudaMalloc(&g, 16384); cudaMalloc(&o, 128);
  cudaMemset(g, 1, 16384);
  FILE *f = fopen(getenv("OUT") ? (std::string(getenv("OUT")) + "/bulk-patterns.csv").c_str() : "bulk-patterns.csv", "w");
  fprintf(f, "launch,offset,bytes\n");
  unsigned n = 0;
  for (unsigned bytes : {16u, 32u, 64u, 128u, 256u, 512u, 1024u, 2048u, 4096u, 8192u})
    for (unsigned off : {0u, 16u, 48u, 128u, 1040u}) {
      probe<<<1, 32>>>(g, off, bytes, o);
      fprintf(f, "%u,%u,%u\n", n++, off, bytes);
    }
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "launches %u: %s\n", n, cudaGetErrorString(e));
  fclose(f);
  return e != cudaSuccess;
}
