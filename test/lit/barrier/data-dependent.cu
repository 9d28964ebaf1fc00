// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Conditions whose value per thread the tool cannot compute, but which can
// differ between threads: reported as possibly divergent, with the reason.

__global__ void onLoad(const int *p, float *out) {
  if (p[threadIdx.x])
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'p[threadIdx.x]' (value loaded from memory), which can differ between threads [cuda-barrier-divergence]
// CHECK: note: the if condition 'p[threadIdx.x] == 0' is thread-varying and cannot be evaluated per thread
  out[threadIdx.x] = 0;
}

__global__ void onShuffle(const int *p, float *out) {
  int v = __shfl_down_sync(0xffffffffu, p[0], 1);
  if (v > 0)
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on '__shfl_down_sync(0xffffffffu, p[0], 1)' (result of call to '__shfl_down_sync'), which can differ between threads [cuda-barrier-divergence]
// CHECK: note: the if condition '__shfl_down_sync(0xffffffffu, p[0], 1) > 0' is thread-varying and cannot be evaluated per thread
  out[threadIdx.x] = 0;
}

__global__ void onAtomic(int *counter, float *out) {
  int ticket = atomicAdd(counter, 1);
  if (ticket < 10)
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'atomicAdd(counter, 1)' (result of call to 'atomicAdd'), which can differ between threads [cuda-barrier-divergence]
// CHECK: note: the if condition 'atomicAdd(counter, 1) < 10' is thread-varying and cannot be evaluated per thread
  out[threadIdx.x] = 0;
}

// Per-thread trip counts.
__global__ void gridStride(float *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    out[i] = 0;
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads (the condition 'i < n' depends on 'i' ('i' changes in the loop at line {{[0-9]+}}, with a different value in each thread)) [cuda-barrier-divergence]
// CHECK: note: the loop is here
  }
}

__global__ void tidBound(float *out) {
  for (int i = 0; i < threadIdx.x; ++i)
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: with i = 0, lanes 1-31 of warp 0 reach it, lane 0 does not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x != 0' is false for lane 0 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
// CHECK: note: the condition depends on warp-uniform values; i = 0 is one choice for which the threads disagree
  out[threadIdx.x] = 0;
}

__global__ void breakOut(const int *p, float *out, int n) {
  for (int i = 0; i < n; ++i) {
    __syncthreads();
// CHECK: data-dependent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads (whether a lane runs another iteration of the loop at line {{[0-9]+}}, with a different value in each thread) [cuda-barrier-divergence]
// CHECK: note: the loop is here
    if (p[i * 64 + threadIdx.x] < 0)
      break;
  }
  out[threadIdx.x] = 0;
}

void launch(const int *p, int *c, float *f, int n) {
  onLoad<<<1, 64>>>(p, f);
  onShuffle<<<1, 64>>>(p, f);
  onAtomic<<<1, 64>>>(c, f);
  gridStride<<<1, 64>>>(f, n);
  tidBound<<<1, 64>>>(f);
  breakOut<<<1, 64>>>(p, f, n);
}
