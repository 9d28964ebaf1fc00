// cuda::atomic_ref on an object in shared memory is an atomic of that object:
// its members (fetch_add, fetch_or, ++, load, ...) live in libcu++'s base
// classes and issue a generic-address atom, which on the H100 costs what the
// native ATOMS does (measured for fetch_add on int); other value types are
// reported unsupported with the reason. Needs the toolkit's libcu++.
// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers --block-dim=32 %s -- -std=c++17 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl-any --cuda-mode=headers --block-dim=32 --format=json %s -- -std=c++17 | %FileCheck %s --check-prefix=JSON
#include <cuda/atomic>

__global__ void refs(int *out) {
  __shared__ int s[1024];
  __shared__ float f[32];
  int i = threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_block> r(s[i * 32]);
  r.fetch_add(1, cuda::memory_order_relaxed);
  // CHECK: atomic-ref.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomic_ref::fetch_add' on 's'
  ++r;
  // CHECK: atomic-ref.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomic_ref::operator++' on 's'
  cuda::atomic_ref<int, cuda::thread_scope_block>(s[i]).fetch_or(4);
  cuda::atomic_ref<float, cuda::thread_scope_block> g(f[i]);
  g.fetch_add(1.0f);
  out[i] = 0;
}

// JSON: "instruction": "atomic_ref::fetch_or",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON: "instruction": "atomic_ref::fetch_add",
// JSON: "reason": "'atomic_ref::fetch_add' on 4-byte values compiles to a generic-address atomic that was not measured",
// JSON-NEXT: "status": "unsupported",
