// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/padding-text.cu
// RUN: %cbl --fix %t/padding-text.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=FIXED %s < %t/padding-text.cu
// RUN: %cbl %t/padding-text.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// The padding fix-it writes the padded extent so that it means what was
// verified: a trailing '+ N' folds ('W + 0' + 1 is 'W + 1', not 'W + 0 + 1'),
// and an extent whose top-level operator binds less tightly than + is
// parenthesised ('1 << 5 + 1' would be 1 << 6).
#define W 32
__global__ void folded(float *out) {
  __shared__ float t[32][W + 0];
  // CHECK: padding-text.cu:[[@LINE-1]]:20: note: fix-it: pad 't' to 't[32][W + 1]'
  // FIXED: __shared__ float t[32][W + 1];
  t[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
__global__ void shifted(float *out) {
  __shared__ float u[32][1 << 5];
  // CHECK: padding-text.cu:[[@LINE-1]]:20: note: fix-it: pad 'u' to 'u[32][(1 << 5) + 1]'
  // FIXED: __shared__ float u[32][(1 << 5) + 1];
  u[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = u[threadIdx.x][threadIdx.y];
}
void launch(float *o) {
  folded<<<1, dim3(32, 32)>>>(o);
  shifted<<<1, dim3(32, 32)>>>(o);
}
// AFTER: 1 file analysed, 4 shared accesses (4 exact), 0 warnings, 0 errors
