// Per-lane constant tables: a 1-D integer array whose elements are known at
// compile time (constexpr or const locals, static const, const __constant__
// with an initialiser) indexed by a lane-dependent value is evaluated exactly
// (a chain of selects), not taken as data loaded from memory. A __constant__
// array that is not const can be rewritten by the host: data-dependent.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
__constant__ const int cperm[32] = {0, 8,  16, 24, 1, 9,  17, 25, 2, 10, 18, 26, 3, 11, 19, 27,
                                    4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31};
__constant__ int mutableTable[32];
__global__ void tables(float *o) {
  __shared__ float s[32 * 32];
  constexpr int rowOf[8] = {0, 4, 8, 12, 16, 20, 24, 28};
  int lane = threadIdx.x % 32;
  // Rows 0, 4, ..., 28 of 32 words, column lane / 8: banks 0-3, 8 words each.
  o[lane] = s[rowOf[lane % 8] * 32 + lane / 8];
  // A permutation of the 32 banks: conflict-free.
  o[lane + 32] = s[cperm[lane]];
  o[lane + 64] = s[mutableTable[lane]];
  // Four words of bank 0, each read by eight lanes.
  static const int sw[4] = {0, 32, 64, 96};
  o[lane + 96] = s[sw[lane % 4]];
}
// CHECK: tables:15:13 ld 4 exact 8-way 8/1
// CHECK: tables:17:18 ld 4 exact 1-way 1/1
// CHECK: tables:18:18 ld 4 data-dependent 0-way 0/0
// CHECK: tables:21:18 ld 4 exact 4-way 4/1
void launch(float *o) { tables<<<1, 32>>>(o); }
