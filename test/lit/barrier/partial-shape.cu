// RUN: %cbl --explain --checks='-*,cuda-barrier-*' %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A launch whose block is known only in part: dim3(32, nwarps) fixes
// blockDim.x = 32 (warps are rows) and leaves blockDim.y open. A barrier
// split by threadIdx.y is then divergent across warps (at every blockDim.y
// above 1), never within one; the message keeps the condition on the part
// not known instead of inventing a shape.

__global__ void rows(float *y) {
  __shared__ float s[32][32];
  if (threadIdx.y == 0) {
    s[0][threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: partial-shape.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), across warps (the block shape is known only in part: blockDim.x = 32, blockDim.z = 1; at 32x2x1: warp 0 reaches it, warp 1 does not) [cuda-barrier-divergence-across-warps]
// CHECK: partial-shape.cu:34:3: note: block shape known only in part: the launch at {{.*}}partial-shape.cu:34:3 fixes only blockDim.x = 32, blockDim.z = 1 (its other extents are not constants); the check tried the usual sizes for the others
  } else {
    __syncthreads();
// CHECK: partial-shape.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), across warps
  }
  y[threadIdx.y * 32 + threadIdx.x] = s[0][threadIdx.x];
}

// Half a warp per row: the same split is within a warp.
__global__ void halfRows(float *y) {
  __shared__ float s[16];
  if (threadIdx.y == 0) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: partial-shape.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), within a warp (the block shape is known only in part: blockDim.x = 16, blockDim.z = 1; at 16x2x1: lanes 0-15 of warp 0 reach it, lanes 16-31 do not) [cuda-barrier-divergence]
  }
  y[threadIdx.x] = s[threadIdx.x % 16];
}

void launch(float *y, int nwarps) {
  rows<<<1, dim3(32, nwarps, 1)>>>(y);
  dim3 block(16, nwarps);
  halfRows<<<1, block>>>(y);
}
