// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON --implicit-check-not="still in the loop"
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN --implicit-check-not="still in the loop"
// A reason that says which part of a loop is not known names a variable of
// the program ('k'), or says what the part is: a bitonic sort's outer loop
// has several exits, and whether a lane goes round it again depends on the
// run-time bound 'npad' (the inner counter 'j' is computed from 'k'). It is
// not a variable, and a reason does not quote it as one; --explain's
// assumptions name it as the reasons do.
__global__ void bitonic(int *dst, int npad) {
  extern __shared__ int s[];
  int col = threadIdx.x;
  if (col >= npad)
    return;
  s[col] = col;
  __syncthreads();
  for (int k = 2; k <= npad; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      int ixj = col ^ j;
      if (ixj > col && (col & k) == 0 && s[col] > s[ixj]) {
        int t = s[col];
        s[col] = s[ixj];
        s[ixj] = t;
      }
      __syncthreads();
    }
  }
  dst[col] = s[col];
}
void launch(int *d, int n) { bitonic<<<1, 256, 256 * 4>>>(d, n); }

// JSON: "reason": "{{.*}} (the loops were not run: whether a lane runs another iteration of the loop at line 16 is not known (it depends on 'k <= npad'))",
// EXPLAIN: explain: not exact, by reason:
// EXPLAIN: unknown: {{.*}}(the loops were not run: whether a lane runs another iteration of the loop at line 16 is not known (it depends on 'k <= npad'))
// EXPLAIN: remark: load of 4 bytes from 's' in 'bitonic' (s[col])
// EXPLAIN: assuming the warp-uniform condition 'a lane runs another iteration of the loop at line 16' holds
// EXPLAIN-NEXT: assuming the warp-uniform condition 'a lane runs another iteration of the loop at line 17' holds
