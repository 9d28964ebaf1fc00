// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Reductions: the loop over s is enumerated for the block shape of the launch
// (256 threads), lane by lane, and every iteration is a case.

#define BLOCK 256
// Interleaved addressing: index = 2*s*tid, guarded by index < blockDim.x.
// The degree doubles with s while fewer lanes stay active.
__global__ void interleaved(int *g) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
}
// CHECK: reductions.cu:[[# @LINE-4]]:7: warning: up to 8-way bank conflict reading 'sdata': 8 lanes of warp 0 read 8 distinct words of bank 0 at s=4 (8 wavefronts, ideal 1) [cuda-shared-bank-conflict]
// EXPLAIN: reductions.cu:[[# @LINE-5]]:7: warning: up to 8-way bank conflict reading 'sdata'
// EXPLAIN: note: per case: 2-way at s=1, 4-way at s=2, 8-way at s=4, 8-way at s=8 (16 lanes active), 8-way at s=16 (8 lanes active), 4-way at s=32 (4 lanes active), 2-way at s=64 (2 lanes active), conflict-free at s=128 (1 lane active){{$}}
// EXPLAIN: note: also writing: up to 8-way (8 wavefronts, ideal 1)
// CHECK: reductions.cu:[[# @LINE-8]]:23: warning: up to 8-way bank conflict reading 'sdata': 8 lanes of warp 0 read 8 distinct words of bank 4 at s=4
// JSON: "cases": [
// JSON-NEXT: {
// JSON-NEXT: "active_lanes": 32,
// JSON-NEXT: "case": "s=1",
// JSON-NEXT: "degree": 2,
// JSON-NEXT: "ideal": 1,
// JSON-NEXT: "wavefronts": 2

// Sequential addressing: cache[tid] += cache[tid + s] for tid < s, s halving:
// clean in every iteration.
__global__ void sequential(int *g) {
  __shared__ int cache[BLOCK];
  unsigned tid = threadIdx.x;
  cache[tid] = g[tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
}
// EXPLAIN: reductions.cu:[[# @LINE-4]]:7: remark: load of 4 bytes from 'cache' in 'sequential' (cache[tid]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN: reductions.cu:[[# @LINE-5]]:21: remark: load of 4 bytes from 'cache' in 'sequential' (cache[tid + s]): conflict-free, 1 wavefront (ideal 1)

void launch(int *g) {
  interleaved<<<1, BLOCK>>>(g);
  sequential<<<1, BLOCK>>>(g);
}

// Without a launch the block size is unknown: the loop cannot be enumerated,
// but the sequential form is clean for every blockDim (s is a common offset;
// which lanes pass tid < s only bounds the cost).
// RUN: %cbl --explain %S/Inputs/sequential-any-block.cu 2>&1 | %FileCheck %s --check-prefix=ANY --implicit-check-not=warning:
// ANY: sequential-any-block.cu:6:32: remark: load of 4 bytes from 'cache' in 'sequentialAnyBlock' (cache[tid + s]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of (s before its update >> 1)
