// RUN: %cbl --block-dim=32 --format=json %s | %FileCheck %s
// RUN: %cbl --remarks --block-dim=32 %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// A row of d words per lane (Qi[tx * d + x], flash attention's tiles) with d
// a parameter: isl decides for which d two lanes meet in one bank. Inside a
// loop that lanes leave at different iterations (the break on i * Br + tx),
// which lanes run the store is not known: the same condition is stated for
// the worst case, every lane running it, instead of no answer.
__global__ void tiles(const float *Q, int N, int d, int Tr, int Br) {
  extern __shared__ float sram[];
  int tx = threadIdx.x;
  float *Qi = sram;
  for (int x = 0; x < d; x++)
    Qi[(tx * d) + x] = Q[x];
  for (int i = 0; i < Tr; i++) {
    if (i * Br + tx >= N)
      break;
    for (int x = 0; x < d; x++)
      Qi[(tx * d) + x] = Q[x];
  }
}
// CHECK: "line": 13,
// CHECK: "reason": "the cost depends on 'd', 'x': two lanes access different words of one bank when d is even and (d <= -2 or d >= 2) (decided with isl; the degree is not computed)",
// CHECK-NEXT: "status": "bound",
// CHECK: "line": 18,
// CHECK: "reason": "the cost depends on 'd', 'x': two lanes access different words of one bank when d is even and (d <= -2 or d >= 2) (decided with isl; the degree is not computed); which threads run it depends on 'a lane runs another iteration of the loop at line 14'",
// CHECK-NEXT: "status": "bound",
// TEXT: isl-under-lane-breaks.cu:18:7: remark: possible bank conflict writing 'sram'
