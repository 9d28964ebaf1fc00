// A block-stride counter divided, shifted, masked or reduced by a constant
// that divides every coefficient of its unknowns (i / 4 with i = 4 * tid +
// 4 * blockDim.x * k) keeps the unknown part exactly (tid + blockDim.x * k):
// the access is exact for every iteration. A divisor that does not divide the
// coefficients (i / 3), or a value that may be negative (C++ division
// truncates toward zero), stays unknown, with the reason.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
struct __align__(16) V4 { float x, y, z, w; };

__global__ void vec(const V4 *in, V4 *out, int n) {
  extern __shared__ V4 s[];
  for (int i = threadIdx.x * 4; i < n; i += blockDim.x * 4)
    s[i / 4] = in[i / 4];
  __syncthreads();
  for (int i = threadIdx.x * 4; i < n; i += blockDim.x * 4)
    out[i] = s[(i / 4) * 2];
  __syncthreads();
  for (int i = threadIdx.x * 4; i < n; i += blockDim.x * 4)
    out[i] = s[i >> 2];
}
// CHECK: vec:14:5 st 16 exact 1-way 4/4
// CHECK: vec:17:14 ld 16 exact 2-way 8/4
// CHECK: vec:20:14 ld 16 exact 1-way 4/4

__global__ void words(float *out, int n) {
  __shared__ float t[1024];
  for (int i = threadIdx.x; i < n; i += 64) {
    t[i % 64] = 0;
    t[(i & 63) * 2] = 1;
    t[i / 3] = 2;
    t[(i - 64) / 4 + 16] = 3; // negative in iteration 0: truncation differs
  }
}
// CHECK: words:29:5 st 4 exact 1-way 1/1
// CHECK: words:30:5 st 4 exact 2-way 2/1
// CHECK: words:31:5 st 4 unknown
// CHECK: words:32:5 st 4 unknown
// TEXT: divisible-forms.cu:17:14: warning: 2-way bank conflict reading 's'
// TEXT: divisible-forms.cu:30:5: warning: 2-way bank conflict writing 't'

void launch(const V4 *a, V4 *b, float *c, int n) {
  vec<<<1, 128, 8192>>>(a, b, n);
  words<<<1, 64>>>(c, n);
}
