// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A launch that fixes blockDim.x and leaves the rest to run-time values
// (dim3(32, nwarps)): the shape is not known, but its width is. Every access
// is evaluated at that width only: a thread with threadIdx.x >= 32, which
// would write every other word, does not exist, whether the access reads
// threadIdx.y or not.

__global__ void rows(float *o) {
  __shared__ float s[8][64];
  unsigned x = threadIdx.x;
  s[threadIdx.y][x < 32 ? x : 2 * x] = o[x];
  __syncthreads();
  o[x] = s[0][x < 32 ? x : 2 * x];
}
// JSON: "case": "blockDim.x=32",
// JSON: "function": "rows",
// JSON: "line": 12,
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON: "case": "blockDim.x=32",
// JSON: "function": "rows",
// JSON: "line": 14,
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,

// The same with the width not fixed: blocks 64 threads wide and more have
// such threads.
__global__ void open(float *o) {
  __shared__ float s[8][64];
  unsigned x = threadIdx.x;
  s[threadIdx.y][x < 32 ? x : 2 * x] = o[x];
// CHECK: fixed-width.cu:[[# @LINE-1]]:3: remark: possible bank conflict writing 's': conflict-free when blockDim.x is 32; 2-way when blockDim.x is 64
  __syncthreads();
  o[x] = s[0][x < 32 ? x : 2 * x];
// CHECK: fixed-width.cu:[[# @LINE-1]]:10: warning: 2-way bank conflict reading 's'
}

void launch(float *o, int nwarps, int width) {
  rows<<<1, dim3(32, nwarps)>>>(o);
  open<<<1, dim3(width, nwarps)>>>(o);
}
