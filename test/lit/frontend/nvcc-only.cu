// Device facilities that the CUDA 12/13 headers give nvcc and Clang 19 lacks
// (cache-hint loads and stores, nvcc's __nv_atomic_* built-ins, surface reads
// and writes, assert from <cassert>), and constructs Clang rejects where nvcc
// accepts them (alignas after __shared__, a kernel launch from device code,
// `#if __CUDACC__`):
// the file is analysed, and what is left out is said in a note.
// nvcc-only-toolkit.test runs the same file with the CUDA toolkit's headers.
// RUN: %cbl %s -- -std=c++17 2>&1 | %FileCheck %s
// RUN: %cbl --format=json %s -- -std=c++17 2>/dev/null | %FileCheck %s --check-prefix=JSON
#include <cassert>

__global__ void child(int *p) { p[threadIdx.x] = 1; }

__global__ void cacheHints(float *out, const float4 *in4, const int2 *in2, double *d,
                           unsigned long long surface) {
  // CHECK-DAG: nvcc-only.cu:[[# @LINE+1]]:14: note: Clang ignores an attribute list at this position (nvcc accepts it, e.g. 'alignas' after '__shared__'); the variable keeps the alignment of its type
  __shared__ alignas(16) float s[64];
  float4 v = __ldcs(in4 + threadIdx.x);
  int2 w = __ldcg(in2) ;
  float a = __ldca(out) + __ldlu(out + 1) + __ldcv(out + 2) + __ldg(out + 3);
  __stcs(out + 4, a);
  __stcg(out + 5, v.x);
  __stwb(d, 1.0);
  __stwt(out + 6, float(w.x));
  __stcs(reinterpret_cast<float4 *>(out) + 2, v);
  assert(a >= 0.0f);
  float sv = surf2Dread<float>(surface, 0, 0);
  surf2Dwrite(sv, surface, 4, 0);
  // CHECK-DAG: nvcc-only.cu:[[# @LINE+1]]:3: warning: 2-way bank conflict writing 's'
  s[threadIdx.x * 2 % 64] = a;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// nvcc defines __CUDACC__ as 1: `#if __CUDACC__` keeps the kernel.
#if __CUDACC__
__global__ void nvAtomics(int *flag, float *out) {
  __shared__ int counts[64];
  int f = __nv_atomic_load_n(flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(flag, f + 1, __NV_ATOMIC_RELEASE);
  int old = __nv_atomic_fetch_add(flag, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
  // CHECK-DAG: nvcc-only.cu:[[# @LINE+1]]:3: warning: 2-way bank conflict writing 'counts'
  counts[threadIdx.x * 2 % 64] = old;
  // CHECK-DAG: nvcc-only.cu:[[# @LINE+1]]:37: note: a kernel launch from device code (dynamic parallelism); the child launch is not analysed (Clang: reference to __global__ function 'child' in __global__ function)
  if (threadIdx.x == 0 && f == 0) { child<<<1, 32>>>(flag); }
  out[threadIdx.x] = counts[threadIdx.x % 32];
}
#endif

// CHECK: 1 file analysed, {{[0-9]+}} shared accesses ({{.*}}), 2 warnings, 0 errors
// JSON: "errors": 0,
// JSON: "message": "a kernel launch from device code (dynamic parallelism)
// JSON: "status": "analysed"
