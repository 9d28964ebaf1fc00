// Which lanes run an access often depends on data (if (in[t] > 0), a tree
// walk's child pointers): no static analysis knows them. Removing lanes
// never adds distinct words to a bank, so an access of at most 4 bytes (one
// phase, no load merge) that is conflict-free with every lane is one
// wavefront whichever lanes run it: exact, with the lanes stated. One that
// conflicts with every lane stays a bound (fewer lanes may conflict less),
// and so do wider accesses (the phases that run depend on the lanes) and
// atomics.
// RUN: %cbl --block-dim=64 --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --block-dim=64 --format=json %s | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --remarks --block-dim=64 %s 2>&1 | %FileCheck %s --check-prefix=TEXT

__global__ void walk(const int *in, const int *child, float *out) {
  __shared__ float s[64 * 2];
  __shared__ double wide[64];
  __shared__ int counts[64];
  int t = threadIdx.x;
  if (in[t] > 0)
    s[t] = 1.0f;
  // CHECK: walk:[[# @LINE-1]]:5 st 4 exact 1-way 1/1
  // JSON: "boundary": "which lanes run it depends on per-thread values that are not known statically ('in[t] > 0'); conflict-free whichever do: one wavefront per execution"
  for (int i = 0; i < 4; i++)
    if (child[i * 64 + t] >= 0)
      out[t] += s[(t + i) % 64];
  // CHECK: walk:[[# @LINE-1]]:17 ld 4 exact 1-way 1/1
  if (in[t] > 0)
    s[t * 2] = 2.0f;
  // CHECK: walk:[[# @LINE-1]]:5 st 4 bound 2-way 2/1
  // TEXT: data-guards-any-lanes.cu:[[# @LINE-2]]:5: remark: possible bank conflict writing 's': 2-way if every lane passes 'in[t] > 0'
  if (in[t] > 0)
    out[t] = wide[t];
  // CHECK: walk:[[# @LINE-1]]:14 ld 8 bound 1-way 2/2
  if (in[t] > 0)
    atomicAdd(&counts[t], 1);
  // CHECK: walk:[[# @LINE-1]]:5 atom 4 bound 1-way 1/1
}

int main() { walk<<<1, 64>>>(0, 0, 0); }
