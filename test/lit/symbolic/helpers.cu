// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// Helpers are analysed in the caller's context, with the actual arguments and
// the kernel's block shape: device functions taking shared pointers or
// indices, NVIDIA's SharedMemory<T> idiom, lambdas returning references.

template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};

__device__ float readStrided(const float *s, int stride) { return s[threadIdx.x * stride]; }
__device__ int rowIndex(int r, int c) { return r * 32 + c; }

__global__ void useHelpers(float *o) {
  __shared__ float s[32 * 64];
  o[threadIdx.x] = readStrided(s, 1) + readStrided(s, 2);
  o[threadIdx.x] += s[rowIndex(threadIdx.x, 0)];
  auto at = [&](int i) -> float & { return s[i]; };
  at(threadIdx.x * 4) = 1.0f;
}
// The helper's access is reported at its own line, for the call that conflicts.
// CHECK: helpers.cu:11:67: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: helpers.cu:16:40: note: in 'readStrided' as called from 'useHelpers' here, with these arguments
// EXPLAIN: helpers.cu:11:67: remark: load of 4 bytes from 's' in 'useHelpers' (s[threadIdx.x * stride]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN: helpers.cu:11:67: remark: load of 4 bytes from 's' in 'useHelpers' (s[threadIdx.x * stride]): 2-way bank conflict, 2 wavefronts (ideal 1)
// CHECK: helpers.cu:17:21: warning: 32-way bank conflict reading 's'
// CHECK: helpers.cu:19:3: warning: 4-way bank conflict writing 's'

template <class T>
__global__ void reduce(T *g) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  g[tid] = sdata[2 * tid];
}
// int: stride 2 words, 2-way; double: 8-byte lanes in half-warps, stride 16 bytes,
// 2-way per half-warp (4 wavefronts, ideal 2): one finding, the worse one, int a note.
// CHECK: helpers.cu:35:12: warning: 2-way bank conflict reading '__smem' through 'sdata' in 'reduce<double>': 2 lanes of warp 0 read 2 distinct words of bank 0 in phase 0 of 2 (4 wavefronts, ideal 2)
// CHECK: note: also reading: 2-way (2 wavefronts, ideal 1) in 'reduce<int>'
// EXPLAIN: helpers.cu:33:3: remark: store of 8 bytes from '__smem' in 'reduce<double>' (sdata[tid]): conflict-free, 2 wavefronts (ideal 2)

// cooperative_groups thread ranks are linear thread ids.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void ranks(float *o) {
  __shared__ float s[1024];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank();
  o[r] = s[r * 2];
}
// CHECK: helpers.cu:50:10: warning: 2-way bank conflict reading 's'

void launch(int *gi, double *gd, float *o) {
  useHelpers<<<1, 32>>>(o);
  reduce<int><<<1, 256, 256 * sizeof(int)>>>(gi);
  reduce<double><<<1, 256, 256 * sizeof(double)>>>(gd);
  ranks<<<1, dim3(16, 4)>>>(o);
}

// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// JSON records say which call of the kernel a helper's access belongs to;
// an access in the kernel's own body has none.
// JSON: "byte_offset": "threadIdx.x * 2 * 4",
// JSON-NEXT: "call_chain": [
// JSON-NEXT: {
// JSON-NEXT: "callee": "readStrided",
// JSON-NEXT: "column": 40,
// JSON-NEXT: "file": "{{.*}}helpers.cu",
// JSON-NEXT: "line": 16
// JSON-NEXT: }
// JSON-NEXT: ],
// JSON-NEXT: "call_site": {
// JSON-NEXT: "callee": "readStrided",
// JSON-NEXT: "column": 40,
// JSON-NEXT: "file": "{{.*}}helpers.cu",
// JSON-NEXT: "line": 16
// JSON-NEXT: },
// JSON-NEXT: "column": 67,
// JSON: "byte_offset": "threadIdx.x * 32 * 4",
// JSON-NEXT: "call_chain": [],
// JSON-NEXT: "call_site": null,
// JSON-NEXT: "column": 21,
