// Library asynchronous copies into shared memory lower to cp.async or
// cp.async.bulk, which are not bank-modelled (docs/bank-model.md): each call
// is one `unsupported` record with the reason, not silence and not one record
// per branch of the library. A `__shared__ cuda::barrier` is a declaration
// Clang rejects (nvcc does not run its constructor): Clang cannot generate
// the code of a kernel that uses it, so that kernel is not analysed, with the
// reason (the object, at its declaration), and the run fails (a known gap: nvcc accepts the kernel). Needs the toolkit's headers.
// REQUIRES: cuda-toolkit
// RUN: not %cbl-any --cuda-mode=headers --format=json %s -- -std=c++17 | %FileCheck %s
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void copies(const int *in, int *out) {
  __shared__ int s[256];
  __shared__ int4 t[64];
  auto block = cg::this_thread_block();
  __pipeline_memcpy_async(&t[threadIdx.x], reinterpret_cast<const int4 *>(in) + threadIdx.x, 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  cg::memcpy_async(block, s, in, sizeof(int) * 256);
  cg::wait(block);
  out[threadIdx.x] = s[threadIdx.x] + t[threadIdx.x].x;
}

__global__ void withBarrier(const int *in, int *out) {
  __shared__ int s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  cuda::memcpy_async(block, s, in, sizeof(int) * 256, bar);
  out[threadIdx.x] = s[threadIdx.x];
}

// CHECK: "array": "t",
// CHECK: "line": 20,
// CHECK: "reason": "cp.async is not bank-modelled: {{.*}}",
// CHECK-NEXT: "status": "unsupported",
// CHECK: "array": "s",
// CHECK: "line": 23,
// CHECK: "reason": "cp.async is not bank-modelled: {{.*}}",
// CHECK-NEXT: "status": "unsupported",
// The kernel that uses the barrier is not analysed, and says why.
// CHECK: "error": "it uses 'bar', a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it)",
