// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// CHECK: 1 file analysed
// Stream-k tiles: every bound comes from blockIdx, parameters and libdevice
// arithmetic (__umulhi), so every thread of a block runs the same iterations.
__device__ __forceinline__ int fastdiv(int n, unsigned mp, unsigned sh) {
  return (__umulhi(n, mp) + n) >> sh;
}
__global__ void tiles(const float *x, float *y, int total, unsigned mp, unsigned sh, int per) {
  __shared__ float s[128];
  int kbc = blockIdx.x * per;
  const int stop = (blockIdx.x + 1) * per;
  int kb0 = kbc - fastdiv(kbc, mp, sh) * total;
  while (kbc < stop) {
    int kb0_stop = min(total, kb0 + stop - kbc);
    for (; kb0 < kb0_stop; ++kb0) {
      s[threadIdx.x] = x[kb0 * 128 + threadIdx.x];
      __syncthreads();
      y[kb0 * 128 + threadIdx.x] = s[127 - threadIdx.x];
      __syncthreads();
    }
    kbc += total - (kb0 - fastdiv(kbc, mp, sh));
    kb0 = 0;
  }
}
