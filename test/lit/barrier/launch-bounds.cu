// RUN: %cbl --explain --checks='-*,cuda-barrier-*' %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// No launch found, only __launch_bounds__(N): a bound on the thread count,
// not a shape. The barrier check tries the shapes of at most N threads and
// states the condition under which the threads disagree, never a 1-D block
// of N threads as a fact (where threadIdx.y would be 0 and a split on it
// invisible).

// Split by row: divergent as soon as the block has two rows.
__global__ void __launch_bounds__(128) rowSplit(float *y) {
  __shared__ float s[4][32];
  if (threadIdx.y == 0) {
    s[0][threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launch-bounds.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), within a warp when blockDim.x is not a multiple of 32, across warps otherwise (the block shape is not known; __launch_bounds__ allows at most 128 threads; at 8x8x1: lanes 0-7 of warp 0 reach it, lanes 8-31 do not) [cuda-barrier-divergence]
// CHECK: launch-bounds.cu:9:{{[0-9]+}}: note: block shape not known: __launch_bounds__ allows at most 128 threads; the check tried blocks of up to 128 threads
  } else {
    __syncthreads();
// CHECK: launch-bounds.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row
  }
  y[threadIdx.x] = s[0][threadIdx.x % 32];
}

// Half a warp: divergent within a warp at every 1-D width of the bound.
__global__ void __launch_bounds__(128) halfWarp(float *y) {
  __shared__ float s[16];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launch-bounds.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent at every block shape tried, within a warp (the block shape is not known; __launch_bounds__ allows at most 128 threads; at 32x1x1: lanes 0-15 of warp 0 reach it, lanes 16-31 do not) [cuda-barrier-divergence]
  }
  y[threadIdx.x] = s[threadIdx.x % 16];
}

// The first 64 threads: whole warps, and only in blocks of more than 64.
__global__ void __launch_bounds__(128) firstTwoWarps(float *y) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launch-bounds.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than 64 threads, across warps (the block shape is not known; __launch_bounds__ allows at most 128 threads; at 96x1x1: warps 0-1 reach it, warp 2 does not) [cuda-barrier-divergence-across-warps]
  }
  y[threadIdx.x] = s[63 - threadIdx.x % 64];
}

// Within the bound every thread passes: no warning.
__global__ void __launch_bounds__(64) withinBound(float *y) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s[63 - threadIdx.x % 64];
}
