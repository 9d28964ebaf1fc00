// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/padding-macros.cu
// RUN: %cbl --fix %t/padding-macros.cu 2>&1 | %FileCheck --check-prefix=APPLIED %s
// RUN: %FileCheck --check-prefix=FIXED %s < %t/padding-macros.cu
// RUN: %cbl %t/padding-macros.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// Extents written with macros: the fix-it's message quotes the declaration
// as the edit leaves it, in the user's spelling (not the macros' values),
// and the edit goes where the extent is written (not into the macro's
// definition). A macro whose body is an operation that binds less tightly
// than '*' is parenthesised: 'SHIFTED + 1' would be 1 << 6, which the
// analysis did not verify. Applied with --fix, no conflict is left.
#define ROWS 32
#define COLS 32
#define SHIFTED 1 << 5
#define TWICE(n) n * 2
#define HALVES 16 + 16
constexpr int Cols = 32;

__global__ void named(float *out, const float *in) {
  __shared__ float s[ROWS][COLS];
  // CHECK: padding-macros.cu:[[# @LINE-1]]:20: note: fix-it: pad 's' to 's[ROWS][COLS + 1]' (verified
  // FIXED: __shared__ float s[ROWS][COLS + 1];
  s[threadIdx.x][threadIdx.y] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

__global__ void shifted(float *out, const float *in) {
  __shared__ float t[ROWS][SHIFTED];
  // CHECK: padding-macros.cu:[[# @LINE-1]]:20: note: fix-it: pad 't' to 't[ROWS][(SHIFTED) + 1]' (verified
  // FIXED: __shared__ float t[ROWS][(SHIFTED) + 1];
  t[threadIdx.x][threadIdx.y] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

// A product needs no parentheses; neither does a constant's name.
__global__ void product(float *out, const float *in) {
  __shared__ float u[2 * 16][TWICE(16)];
  // CHECK: padding-macros.cu:[[# @LINE-1]]:20: note: fix-it: pad 'u' to 'u[2 * 16][TWICE(16) + 1]' (verified
  // FIXED: __shared__ float u[2 * 16][TWICE(16) + 1];
  u[threadIdx.x][threadIdx.y] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = u[threadIdx.y][threadIdx.x];
}
__global__ void constant(float *out, const float *in) {
  __shared__ float v[ROWS][Cols];
  // CHECK: padding-macros.cu:[[# @LINE-1]]:20: note: fix-it: pad 'v' to 'v[ROWS][Cols + 1]' (verified
  // FIXED: __shared__ float v[ROWS][Cols + 1];
  v[threadIdx.x][threadIdx.y] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.y][threadIdx.x];
}

// A 1-D array grown by the skew: its extent, a sum hidden in a macro, is an
// operand of '+' and '/' in parentheses.
__global__ void skewed(float *out) {
  __shared__ float w[HALVES * 32];
  // CHECK: padding-macros.cu:[[# @LINE-1]]:20: note: fix-it: skew the index of 'w' {{.*}}, 'w[HALVES * 32]' -> 'w[(HALVES * 32) + (HALVES * 32) / 32]' (verified
  // FIXED: __shared__ float w[(HALVES * 32) + (HALVES * 32) / 32];
  w[threadIdx.x * 32] = 1;
  __syncthreads();
  out[threadIdx.x] = w[threadIdx.x * 32 + 1];
}

void launch(float *o, const float *i) {
  named<<<1, dim3(32, 8)>>>(o, i);
  shifted<<<1, dim3(32, 8)>>>(o, i);
  product<<<1, dim3(32, 8)>>>(o, i);
  constant<<<1, dim3(32, 8)>>>(o, i);
  skewed<<<1, 32>>>(o);
}
// APPLIED: applied 7 fix-its to 1 file
// AFTER: 1 file analysed, 10 shared accesses (10 exact), 0 warnings, 0 errors
