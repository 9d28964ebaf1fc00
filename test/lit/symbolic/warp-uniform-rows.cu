// A warp per row (blockDim.x a multiple of 32): threadIdx.y is the same in
// every lane of a warp, so a non-linear value of it and a parameter
// ((2 + threadIdx.y) * C / 4, llm.c's per-row buffers) is one unknown offset
// for the warp, and the access is exact for every value of C. With rows of
// 16 threads a warp spans two rows: the offset differs between its lanes and
// the access stays unknown, as does a non-linear value of threadIdx.x.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
__global__ void rows(float *out, int C) {
  extern __shared__ float sm[];
  float *row = sm + (2 + threadIdx.y) * C / 4;
  row[threadIdx.x] = 0;
  row[threadIdx.x * 2] = 1;
  out[threadIdx.x] = sm[threadIdx.x * C / 4];
}
// CHECK: rows:12:3 st 4 exact 1-way
// CHECK: rows:13:3 st 4 exact 2-way
// CHECK: rows:14:22 ld 4 unknown
// TEXT: warp-uniform-rows.cu:13:3: warning: 2-way bank conflict writing 'sm'

__global__ void halfRows(float *out, int C) {
  extern __shared__ float sm[];
  float *row = sm + (2 + threadIdx.y) * C / 4;
  row[threadIdx.x] = 0;
}
// CHECK: halfRows:24:3 st 4 unknown

void launch(float *o, int C) {
  rows<<<1, dim3(32, 4), 4096>>>(o, C);
  halfRows<<<1, dim3(16, 8), 4096>>>(o, C);
}
