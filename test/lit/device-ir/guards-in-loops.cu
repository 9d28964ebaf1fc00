// RUN: timeout 120 %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// A loop whose body is a chain of conditional blocks, each of which may
// leave the iteration early (continue): the loop's condition reads the
// value merged from every way round, so the guards of the blocks inside the
// loop are needed while that condition is still being built. They were
// built again at each use (3^N blocks visited: HeCBench local-ht's kernel
// took over 300 s); they are kept until the condition is set, and this
// kernel of 16 such blocks takes well under a second. `timeout` turns a
// return of the old growth into a failure instead of a hang.
__global__ void chained_continues(const int *g, int *out, int n) {
  __shared__ int s[256];
  int x = threadIdx.x;
  do {
    if (g[x & 1023] > 0) { out[x + 0] = x; x += 1; if (g[x & 511] == 0) continue; }
    if (g[x & 1023] > 1) { out[x + 1] = x; x += 2; if (g[x & 511] == 1) continue; }
    if (g[x & 1023] > 2) { out[x + 2] = x; x += 3; if (g[x & 511] == 2) continue; }
    if (g[x & 1023] > 3) { out[x + 3] = x; x += 4; if (g[x & 511] == 3) continue; }
    if (g[x & 1023] > 4) { out[x + 4] = x; x += 5; if (g[x & 511] == 4) continue; }
    if (g[x & 1023] > 5) { out[x + 5] = x; x += 6; if (g[x & 511] == 5) continue; }
    if (g[x & 1023] > 6) { out[x + 6] = x; x += 7; if (g[x & 511] == 6) continue; }
    if (g[x & 1023] > 7) { out[x + 7] = x; x += 8; if (g[x & 511] == 7) continue; }
    if (g[x & 1023] > 8) { out[x + 8] = x; x += 9; if (g[x & 511] == 8) continue; }
    if (g[x & 1023] > 9) { out[x + 9] = x; x += 10; if (g[x & 511] == 9) continue; }
    if (g[x & 1023] > 10) { out[x + 10] = x; x += 11; if (g[x & 511] == 10) continue; }
    if (g[x & 1023] > 11) { out[x + 11] = x; x += 12; if (g[x & 511] == 11) continue; }
    if (g[x & 1023] > 12) { out[x + 12] = x; x += 13; if (g[x & 511] == 12) continue; }
    if (g[x & 1023] > 13) { out[x + 13] = x; x += 14; if (g[x & 511] == 13) continue; }
    if (g[x & 1023] > 14) { out[x + 14] = x; x += 15; if (g[x & 511] == 14) continue; }
    if (g[x & 1023] > 15) { out[x + 15] = x; x += 16; if (g[x & 511] == 15) continue; }
    s[x & 255] = x;
  } while (x < n);
  out[threadIdx.x] = s[threadIdx.x];
}
// CHECK: chained_continues:30:5 st 4 data-dependent
// CHECK: chained_continues:32:22 ld 4 exact 1-way 1/1
