// RUN: %expect-exit 2 %cbl %s > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// Found by fuzz-frontend (a mutation of test/lit/barrier/uniform-guards.cu).
// A __shared__ array whose size Clang rejects has a dependent type (the size
// is a RecoveryExpr), and the shared-array table asked Clang for its
// alignment, which Clang's release build does not define for such a type:
// under ASan the query recursed until the stack ran out, a silent SIGSEGV in
// some runs and none in others (undefined behaviour, so this test cannot
// catch the old code every time). Now such an array gets no layout, and the
// kernel is reported as not analysed, with Clang's error.
__global__ void invalidSize(float *out) {
  __shared__ float s[blockDim.y256];
  s[threadIdx.x] = out[threadIdx.x];
  out[0] = s[0];
}
// CHECK: error: kernel 'invalidSize' not analysed: Clang rejects its code: no member named 'y256' in '__cuda_builtin_blockDim_t'

__global__ void invalidElement(float *out) {
  __shared__ decltype(out[0] + undeclared) t[32];
  t[threadIdx.x] = out[threadIdx.x];
  out[0] = t[0];
}
// CHECK: error: kernel 'invalidElement' not analysed: Clang rejects its code: use of undeclared identifier 'undeclared'
// CHECK: 1 file analysed (1 partly, 0 not at all)
