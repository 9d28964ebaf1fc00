// A guard `f(lane) == u` with u warp-uniform but unknown: the lanes that pass
// share one value of f, so the worst case is the costliest group of lanes
// with equal f, not every lane (HeCBench tridiagonal's `i == system_size - 1`
// with i distinct per lane: one lane at a time, no conflict possible). Every
// group conflict-free: so is every set of lanes that runs it (exact).
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
__global__ void equalityGuards(float *a, int n) {
  __shared__ float s[1024];
  int thid = threadIdx.x;
  int i = 32 * thid + 31;
  // One lane passes: a single word, conflict-free.
  if (i == n - 1)
    s[i] = 0;
  // Groups of four lanes pass together, in four different banks.
  int k = thid / 4;
  if (k == n)
    s[k * 32 + thid % 4] = 1;
  // Groups of four lanes in one bank: 4-way.
  if (k == n + 1)
    s[(thid % 4) * 32 + k] = 2;
  // A threshold: the warps inside it pass with every lane, exactly.
  if (thid < n)
    s[thid * 32] = 3;
}
// CHECK: equalityGuards:14:5 st 4 exact 1-way 1/1
// CHECK: equalityGuards:18:5 st 4 exact 1-way 1/1
// CHECK: equalityGuards:21:5 st 4 bound 4-way 4/1
// CHECK: equalityGuards:24:5 st 4 exact 32-way 32/1
// TEXT-NOT: :14:5: warning
// TEXT-NOT: :18:5: warning
// TEXT: equality-guards.cu:21:5: warning: 4-way bank conflict writing 's'
// TEXT: equality-guards.cu:24:5: warning: 32-way bank conflict writing 's'
void launch(float *a, int n) { equalityGuards<<<1, 32>>>(a, n); }
