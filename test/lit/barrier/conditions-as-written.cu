// A condition a finding quotes reads as the user wrote it: the comparison
// the branch's debug location points at, when its operands are on the same
// sides, or swapped with the relation mirrored ('n > tid', which the
// compiler tests as 'threadIdx.x < n'). The compiler's form otherwise,
// without redundant parentheses (symbolic/loop-reason-names.cu: a rotated
// loop's 'k <= npad', tested as 'k * 2 > npad').
// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not="T * B" --implicit-check-not="'threadIdx.x <"

__global__ void gridStride(float *out, int B, int T) {
  extern __shared__ float s[];
  int warpId = threadIdx.x / 32;
  for (int bt = blockIdx.x * 4 + warpId; bt < B * T; bt += gridDim.x * 4) {
    s[threadIdx.x] = out[bt];
    __syncthreads();
    out[bt] = s[threadIdx.x ^ 1];
  }
}
// CHECK: conditions-as-written.cu:[[# @LINE-4]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads (the condition 'bt < B * T' depends on 'bt' ('bt' changes in the loop at line [[# @LINE-6]], with a different value in each thread))

__global__ void swapped(float *out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (n > tid) {
    s[tid] = out[tid];
    __syncthreads();
  }
  if (!(tid < n / 2))
    __syncthreads();
  out[tid] = s[tid];
}
// CHECK: conditions-as-written.cu:[[# @LINE-8]]:7: note: the if condition 'n > tid' is false for lanes 1-31 of warp 0
// CHECK: conditions-as-written.cu:[[# @LINE-5]]:7: note: the if condition 'tid < n / 2' is true for lane 0 of warp 0

void launch(float *d, int B, int T) {
  gridStride<<<8, 128, 512>>>(d, B, T);
  swapped<<<1, 256>>>(d, B);
}
