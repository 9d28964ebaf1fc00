// cuda::atomic_ref on an object in shared memory is an atomic of that object:
// its members (fetch_add, fetch_or, ++, load, ...) live in libcu++'s base
// classes and issue a generic-address atom, which on the H100 costs what the
// native ATOMS does (measured for fetch_add on int); other value types are
// reported unsupported with the reason. Needs the toolkit's libcu++.
// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers --block-dim=32 %s -- -std=c++17 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl-any --cuda-mode=headers --block-dim=32 --format=json %s -- -std=c++17 | %FileCheck %s --check-prefix=JSON
// RUN: %cbl-any --cuda-mode=headers --block-dim=32 --format=json %s -- -std=c++17 | python3 %S/../Inputs/records.py | %FileCheck %s --check-prefix=REC
#include <cuda/atomic>

__global__ void refs(int *out) {
  __shared__ int s[1024];
  __shared__ float f[32];
  int i = threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_block> r(s[i * 32]);
  r.fetch_add(1, cuda::memory_order_relaxed);
  // CHECK: atomic-ref.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'fetch_add' on 's'
  ++r;
  // CHECK: atomic-ref.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'operator++' on 's'
  cuda::atomic_ref<int, cuda::thread_scope_block>(s[i]).fetch_or(4);
  cuda::atomic_ref<float, cuda::thread_scope_block> g(f[i]);
  g.fetch_add(1.0f);
  out[i] = 0;
}

// The records are at the instructions, in libcu++'s headers (the order of
// their lines), the findings at the calls above.
// JSON-DAG: "instruction": "fetch_or",
// JSON-DAG: "reason": "'fetch_add' on 4-byte values compiles to a generic-address atomic that was not measured",
// REC-DAG: refs:{{[0-9]+}}:{{[0-9]+}} atom 4 unsupported
// REC-DAG: refs:{{[0-9]+}}:{{[0-9]+}} atom 4 exact 1-way 1/1
// REC-DAG: refs:{{[0-9]+}}:{{[0-9]+}} atom 4 exact 32-way 32/1
// REC-DAG: refs:{{[0-9]+}}:{{[0-9]+}} atom 4 exact 32-way 32/1
