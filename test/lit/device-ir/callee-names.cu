// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// The result of a call without a body is named after its callee: the
// demangled base name outlives the mangled string it was read from.
__device__ int opaqueVoteOfTheWholeWarp(int v);

__global__ void votes(const int *p, float *out) {
  if (opaqueVoteOfTheWholeWarp(p[threadIdx.x]) > 0)
    __syncthreads();
// CHECK: callee-names.cu:[[# @LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on '{{.*}}' (result of call to 'opaqueVoteOfTheWholeWarp'), which can differ between threads
  out[threadIdx.x] = 0;
}
