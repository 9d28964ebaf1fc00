// RUN: %cbl --block-dim=32 %s 2>&1 | %FileCheck %s
// A kernel template instantiated explicitly is analysed once: one record per
// access, one warning (the clang AST holds the instance twice: as an
// instantiation and at the explicit instantiation).
template <int N> __global__ void stride(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * N) % 64];
}
template __global__ void stride<2>(float *);
// CHECK: explicit-instantiation.cu:9:22: warning: 2-way bank conflict reading 's'
// CHECK-NOT: warning:
// CHECK: 1 file analysed, 2 shared accesses (2 exact), 1 warning, 0 errors
