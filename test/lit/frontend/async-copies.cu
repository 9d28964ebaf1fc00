// Library asynchronous copies into shared memory lower to cp.async or
// cp.async.bulk, which are not bank-modelled (docs/bank-model.md): each call
// is one `unsupported` record with the reason, not silence and not one record
// per branch of the library. A `__shared__ cuda::barrier` is a declaration
// Clang rejects (nvcc does not run its constructor); calls that use it are
// reported too. Needs the toolkit's headers.
// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers --format=json %s -- -std=c++17 | %FileCheck %s
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void copies(const int *in, int *out) {
  __shared__ int s[256];
  __shared__ int4 t[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  __pipeline_memcpy_async(&t[threadIdx.x], reinterpret_cast<const int4 *>(in) + threadIdx.x, 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  cg::memcpy_async(block, s, in, sizeof(int) * 256);
  cg::wait(block);
  cuda::memcpy_async(block, s, in, sizeof(int) * 256, bar);
  out[threadIdx.x] = s[threadIdx.x] + t[threadIdx.x].x;
}

// CHECK: "array": "t",
// CHECK: "reason": "asynchronous copy into shared memory ('__pipeline_memcpy_async': cp.async or cp.async.bulk) is not bank-modelled
// CHECK-NEXT: "status": "unsupported",
// CHECK: "array": "s",
// CHECK: "reason": "asynchronous copy into shared memory ('memcpy_async': cp.async or cp.async.bulk) is not bank-modelled
// CHECK-NEXT: "status": "unsupported",
// CHECK: "array": "s",
// CHECK: "reason": "in a call Clang rejects (it uses a declaration Clang marks invalid, e.g. a __shared__ cuda::barrier): not analysed",
// CHECK-NEXT: "status": "unsupported",
