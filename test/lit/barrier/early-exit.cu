// RUN: %cbl --explain --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='remark: barrier' --implicit-check-not='remark: call' --implicit-check-not='remark: possible'
// Threads that returned never reach a later barrier: a remark by default.

__global__ void boundsCheck(const float *in, float *out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
// CHECK: early-exit.cu:[[@LINE-1]]:3: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: with n = 1, lanes 1-31 of warp 0 and warps 1-3 return before it [cuda-barrier-early-exit]
// CHECK: note: lanes 1-31 of warp 0 return here
// CHECK: note: assuming block 128x1x1 from the launch
// CHECK: note: the condition depends on warp-uniform values; n = 1 is one choice for which the threads disagree
// CHECK: note: threads that have returned never arrive at later barriers: s
  out[i] = s[127 - threadIdx.x];
}

__global__ void lastWarpLeaves(float *out) {
  if (threadIdx.x >= 96)
    return;
  __syncthreads();
// CHECK: early-exit.cu:[[@LINE-1]]:3: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: warp 3 returns before it (whole warps) [cuda-barrier-early-exit]
// CHECK: note: lanes 0-31 of warp 3 return here
// CHECK: note: assuming block 128x1x1 from the launch
// CHECK: note: threads that have returned never arrive at later barriers: s
  out[threadIdx.x] = 0;
}

// A uniform early return is fine.
__global__ void uniformReturn(float *out, int n) {
  if (n == 0)
    return;
  __syncthreads();
  out[threadIdx.x] = 0;
}

// Returning inside a loop: later barriers lose those threads.
__global__ void returnInLoop(const int *p, float *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (p[threadIdx.x] == i)
      return;
  }
  __syncthreads();
// CHECK: early-exit.cu:[[@LINE-1]]:3: remark: barrier '__syncthreads()' may not be reached by threads that returned earlier: which threads return depends on 'p[threadIdx.x]' (value loaded from memory) [cuda-barrier-early-exit]
// CHECK: note: threads return here under a thread-varying condition
// CHECK: note: threads that have returned never arrive at later barriers: s
  out[threadIdx.x] = 0;
}

// Returning before a loop that holds a barrier: the loop counter is the same
// in every thread still running, so the barrier is an early exit, not a
// barrier in a loop whose trip count varies.
__global__ void returnBeforeLoop(float *out, int n) {
  __shared__ float s[128];
  if (threadIdx.x >= n)
    return;
  for (int i = 0; i < 4; ++i) {
    s[threadIdx.x] = i;
    __syncthreads();
// CHECK: early-exit.cu:[[@LINE-1]]:5: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: with n = 1, lanes 1-31 of warp 0 and warps 1-3 return before it [cuda-barrier-early-exit]
    out[threadIdx.x] += s[(threadIdx.x + 1) % 128];
  }
}

// The exiting branch does work first (llm.c's softmax and encoder kernels:
// `if (tid >= C) { maxvals[idx] = ...; return; }`): still an early exit.
__global__ void storeThenReturn(float *out, int n) {
  __shared__ float s[256];
  if (threadIdx.x / 32 != 0) {
    s[threadIdx.x] = 1.0f;
    return; // only warp 0 goes on; {braces} and a ; in the comment
  }
  __syncthreads();
// CHECK: early-exit.cu:[[@LINE-1]]:3: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: warps 1-7 return before it (whole warps) [cuda-barrier-early-exit]
  out[threadIdx.x] = s[threadIdx.x + 32];
}

void launch(const float *in, const int *p, float *out, int n) {
  storeThenReturn<<<1, 256>>>(out, n);
  boundsCheck<<<4, 128>>>(in, out, n);
  lastWarpLeaves<<<1, 128>>>(out);
  uniformReturn<<<1, 128>>>(out, n);
  returnInLoop<<<1, 128>>>(p, out, n);
  returnBeforeLoop<<<1, 128>>>(out, n);
}
