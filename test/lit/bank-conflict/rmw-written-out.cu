// A read-modify-write written out, `s[b] = s[b] + s[a]`, is one finding for
// the load and the store of s[b] (the same lvalue, array and offset), as
// `s[b] += s[a]` is: the findings of a scan fit on a screen. The load of
// s[a] is a finding of its own; JSON keeps a record per access.
// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON

__global__ void scan(int *out) {
  __shared__ int s[512];
  s[threadIdx.x] = out[threadIdx.x];
  s[threadIdx.x + 256] = out[threadIdx.x + 256];
  __syncthreads();
  int ai = 8 * threadIdx.x + 7, bi = 8 * threadIdx.x + 3;
  if (threadIdx.x < 64)
    s[ai] = s[ai] + s[bi];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
void launch(int *o) { scan<<<1, 256>>>(o); }

// CHECK: rmw-written-out.cu:[[# @LINE-6]]:5: warning: 8-way bank conflict {{reading|writing}} 's'
// CHECK: rmw-written-out.cu:[[# @LINE-7]]:21: warning: 8-way bank conflict reading 's'
// CHECK: 1 file analysed, 6 shared accesses (6 exact), 2 warnings, 0 errors

// EXPLAIN: rmw-written-out.cu:[[# @LINE-10]]:5: warning: 8-way bank conflict
// EXPLAIN: note: also {{reading|writing}}: 8-way

// JSON-COUNT-2: "check": "cuda-shared-bank-conflict",
// JSON-NOT: "check": "cuda-shared-bank-conflict",
