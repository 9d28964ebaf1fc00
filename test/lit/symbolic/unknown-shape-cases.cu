// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --explain-function=insideTheBlock %s 2>&1 | %FileCheck %s --check-prefix=INSIDE
// With no launch the block is a 1-D one of 32 to 1024 threads (a multiple
// of 32): a loop iteration or a lane that no such block runs is not a case.
// 's < blockDim.x' ends the loop at s = 512 at the latest (not at s = 2^31,
// as an unknown bound would), and 'index < blockDim.x' leaves lanes 8-31 out
// at s = 64 (index = 128 * tid >= 1024), so no 32-way case there.
__global__ void interleavedAnyWidth(int *g_idata, int *g_odata) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}
// CHECK: unknown-shape-cases.cu:[[# @LINE-6]]:7: warning: up to 32-way bank conflict reading 'sdata': 32 lanes of warp 0 read 32 distinct words of bank 0 at s=16
// CHECK: unknown-shape-cases.cu:[[# @LINE-7]]:23: warning: up to 32-way bank conflict reading 'sdata': 32 lanes of warp 0 read 32 distinct words of bank 16 at s=16
// Ten iterations at most (s = 1 to 512), each possible at 1024 threads.
// JSON: "expression": "sdata[index]",
// JSON: "cases": [
// JSON: "case": "s=1",
// JSON: "case": "s=16",
// JSON-NEXT: "degree": 32,
// JSON: "active_lanes": 16,
// JSON-NEXT: "case": "s=32",
// JSON-NEXT: "degree": 16,
// JSON: "active_lanes": 8,
// JSON-NEXT: "case": "s=64",
// JSON-NEXT: "degree": 8,
// JSON: "active_lanes": 1,
// JSON-NEXT: "case": "s=512",
// JSON-NEXT: "degree": 1,
// JSON-NOT: "case": "s=
// JSON: "expression":

// A guard every thread of every such block passes is no condition at all:
// the verdict is exact, with no boundary warp.
__global__ void insideTheBlock(float *out) {
  __shared__ float t[32 * 32];
  if (threadIdx.x < 2 * blockDim.x)
    out[threadIdx.x] = t[(threadIdx.x % 32) * 32];
}
// CHECK: unknown-shape-cases.cu:[[# @LINE-2]]:24: warning: 32-way bank conflict reading 't': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1)
// INSIDE: unknown-shape-cases.cu:[[# @LINE-3]]:24: warning: 32-way bank conflict reading 't'
// INSIDE-NOT: boundary
// INSIDE: explain: 1 shared access (1 exact) in 1 function
// INSIDE: unknown-shape-cases.cu:[[# @LINE-6]]:24: remark: load of 4 bytes from 't' in 'insideTheBlock' (t[(threadIdx.x % 32) * 32]): 32-way bank conflict, 32 wavefronts (ideal 1) in warp 0
// INSIDE-NOT: boundary
