// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=UNKNOWN --implicit-check-not=warning:
// RUN: %cbl --explain --block-dim=32,8 %s 2>&1 | %FileCheck %s --check-prefix=PINNED --implicit-check-not=warning:
// Divergence that depends on the block shape: with the shape unknown the
// condition under which the threads disagree is stated, never one of the
// shapes tried taken for a fact; with the shape known, the class at it.

// Warps are rows at 32x8 (across warps), split rows at 16x16 (within one).
__global__ void rowSplit(float *y) {
  __shared__ float s[8][32];
  if (threadIdx.y % 2 == 0) {
    s[threadIdx.y][threadIdx.x] = y[threadIdx.x];
    __syncthreads();
  } else {
    __syncthreads();
  }
  y[threadIdx.x] = s[0][threadIdx.x];
}
// UNKNOWN: shape-conditions.cu:12:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), within a warp when blockDim.x is not a multiple of 32, across warps otherwise (the block shape is not known; at 16x16x1: lanes 0-15 of warp 0 reach it, lanes 16-31 do not) [cuda-barrier-divergence]
// UNKNOWN: note: block shape not known: the check tried 1-D blocks of 32 to 1024 threads
// UNKNOWN: shape-conditions.cu:14:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row
// PINNED: shape-conditions.cu:12:5: warning: barrier '__syncthreads()' is divergent across warps: warps 0, 2, 4, 6 reach it, warps 1, 3, 5, 7 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// PINNED: note: assuming block 32x8x1 from --block-dim
// PINNED: shape-conditions.cu:14:5: warning: barrier '__syncthreads()' is divergent across warps: warps 1, 3, 5, 7 reach it

// Only the first 64 threads: all agree in a block of at most 64 (and at
// 32x8, where threadIdx.x < 32).
__global__ void firstThreads(float *y) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s[63 - threadIdx.x % 64];
}
// UNKNOWN: shape-conditions.cu:31:5: warning: barrier '__syncthreads()' is divergent when the block has more than 64 threads, across warps (the block shape is not known; at 96x1x1: warps 0-1 reach it, warp 2 does not) [cuda-barrier-divergence-across-warps]

// The trip count differs: each thread strides from its own start to n
// (contrast with block-uniform-facts.cu, where the bound moves with the start).
__global__ void strided(float *y, int n) {
  __shared__ float s[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = y[i];
    __syncthreads();
    y[i] = s[255 - threadIdx.x];
  }
}
// UNKNOWN: shape-conditions.cu:43:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads (the condition 'i < n' depends on 'i'
// PINNED: shape-conditions.cu:43:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads
