// RUN: %cbl %s --block-dim=32,1,1 --format=json > %t.whole.json
// RUN: %cbl %s --block-dim=32,1,1 --format=json --debug-device-part-instructions=1 --debug-device-max-parts=16 -j 1 > %t.parts1.json
// RUN: %cbl %s --block-dim=32,1,1 --format=json --debug-device-part-instructions=1 --debug-device-max-parts=16 -j 3 > %t.parts3.json
// RUN: diff %t.whole.json %t.parts1.json
// RUN: diff %t.whole.json %t.parts3.json
// RUN: %cbl %s --block-dim=32,1,1 --debug-device-part-instructions=1 --debug-device-max-parts=16 -j 3 2>&1 | %FileCheck %s
// RUN: %cbl %S/../bank-conflict/index-rewrite.cu --format=json > %t.rw.json
// RUN: %cbl %S/../bank-conflict/index-rewrite.cu --format=json --debug-device-part-instructions=1 --debug-device-max-parts=16 -j 2 > %t.rw2.json
// RUN: diff %t.rw.json %t.rw2.json
//
// A unit whose device code is large is optimised in parts, groups of its
// kernels each in a module of its own (on a pool); here every kernel is a
// part of its own. The records are those of the whole module, whatever
// the threads: a kernel's part holds every function it calls, and what one
// part's code writes is not taken for its initial value in another.

static __device__ int column; // written by one kernel, read by another

__global__ void setColumn(int c) { column = c; }

__global__ void readColumn(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][column];
}
// In readColumn's part, no code writes 'column': still not 0 there.
// CHECK: device-parts.cu:[[# @LINE-3]]:22: note: byte offset in 'tile' = threadIdx.x * 128 + column * 4:

// A helper of two parts, called with another stride in each.
static __device__ void store(float *s, int stride, float v) { s[threadIdx.x * stride] = v; }

__global__ void strideOne(float *out) {
  __shared__ float s[1024];
  store(s, 1, out[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void strideTwo(float *out) {
  __shared__ float s[1024];
  store(s, 2, out[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = s[2 * threadIdx.x];
}
// CHECK: device-parts.cu:[[# @LINE-15]]:63: note: byte offset in 's' = threadIdx.x * 8: {{.*}}(in 'strideTwo' through the call at
