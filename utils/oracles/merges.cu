// Which adjacent shared-memory accesses of one thread nvcc (ptxas) merges into
// one wider instruction (LDS.64, LDS.128, STS.64, ...). Each kernel holds one
// pattern; every access is on its own source line, so the SASS line table
// (nvdisasm -g) tells which lines became one instruction and its width.
// Compiled only, never run:
//   nvcc -arch=sm_90 -O3 -lineinfo -cubin merges.cu -o merges.cubin
//   nvdisasm -g -c merges.cubin > merges.sass
//   python3 utils/oracles/merges_table.py merges.sass > test/data/h100-merges.csv
// The table is test/data/h100-merges.csv; lit test device-ir/merges.test checks
// the tool's widths against it.
#include <cstdint>

#define T threadIdx.x
#define SINK(v) out[blockIdx.x * blockDim.x + T] = (v)

// A static int array alone in the kernel: pairs and quads of loads.
__global__ void static_pair_load(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b);
}

__global__ void static_quad_load(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[4 * T];
  int b = s[4 * T + 1];
  int c = s[4 * T + 2];
  int d = s[4 * T + 3];
  SINK(a + b + c + d);
}

__global__ void static_pair_store(int *out, const int *in) {
  __shared__ int s[1024];
  s[2 * T] = in[T];
  s[2 * T + 1] = in[T + 1];
  __syncthreads();
  SINK(s[T ^ 1]);
}

__global__ void static_quad_store(float *out, const float *in) {
  __shared__ float s[1024];
  s[4 * T] = in[T];
  s[4 * T + 1] = in[T + 32];
  s[4 * T + 2] = in[T + 64];
  s[4 * T + 3] = in[T + 96];
  __syncthreads();
  out[T] = s[T ^ 3];
}

// Odd start: [2t+1, 2t+2] is not 8-byte aligned.
__global__ void static_pair_odd(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T + 1];
  int b = s[2 * T + 2];
  SINK(a + b);
}

// A second, smaller array declared first: where does ptxas place 's'?
__global__ void two_arrays_pair(int *out) {
  __shared__ char c[5];
  __shared__ int s[1024];
  c[T % 5] = char(T);
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b + c[T % 5]);
}

__global__ void two_int_arrays_pair(int *out) {
  __shared__ int u[3];
  __shared__ int s[1024];
  u[T % 3] = T;
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b + u[T % 3]);
}

__global__ void double_pair(double *out) {
  __shared__ double d[1024];
  d[T] = T;
  __syncthreads();
  double a = d[2 * T];
  double b = d[2 * T + 1];
  out[T] = a + b;
}

__global__ void short_pair(int *out) {
  __shared__ short h[1024];
  h[T] = short(T);
  __syncthreads();
  int a = h[2 * T];
  int b = h[2 * T + 1];
  SINK(a + b);
}

__global__ void short_quad(int *out) {
  __shared__ short h[2048];
  h[T] = short(T);
  __syncthreads();
  int a = h[4 * T];
  int b = h[4 * T + 1];
  int c = h[4 * T + 2];
  int d = h[4 * T + 3];
  SINK(a + b + c + d);
}

__global__ void char_quad(int *out) {
  __shared__ unsigned char q[4096];
  q[T] = (unsigned char)T;
  __syncthreads();
  int a = q[4 * T];
  int b = q[4 * T + 1];
  int c = q[4 * T + 2];
  int d = q[4 * T + 3];
  SINK(a + b + c + d);
}

// Something between the two loads: a store to another array, a barrier.
__global__ void store_between(int *out) {
  __shared__ int s[1024];
  __shared__ int r[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  r[T] = a;
  int b = s[2 * T + 1];
  __syncthreads();
  SINK(b + r[T ^ 1]);
}

__global__ void barrier_between(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  __syncthreads();
  int b = s[2 * T + 1];
  SINK(a + b);
}

// The two loads in different blocks of the control flow.
__global__ void guard_between(int *out, int n) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = 0;
  if (a < n)
    b = s[2 * T + 1];
  SINK(a + b);
}

// A stride only known at run time: the alignment of k*t is unknown.
__global__ void runtime_stride(int *out, int k) {
  __shared__ int s[4096];
  s[T] = T;
  __syncthreads();
  int a = s[k * T];
  int b = s[k * T + 1];
  SINK(a + b);
}

// Even stride only known at run time: 2*k*t words is 8-byte aligned.
__global__ void runtime_even_stride(int *out, int k) {
  __shared__ int s[4096];
  s[T] = T;
  __syncthreads();
  int a = s[2 * k * T];
  int b = s[2 * k * T + 1];
  SINK(a + b);
}

// A data-dependent, even index.
__global__ void data_index_pair(int *out, const int *idx) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int i = idx[T] & 511;
  int a = s[2 * i];
  int b = s[2 * i + 1];
  SINK(a + b);
}

extern __shared__ float dyn[];

__global__ void extern_pair(float *out) {
  dyn[T] = T;
  __syncthreads();
  float a = dyn[2 * T];
  float b = dyn[2 * T + 1];
  out[T] = a + b;
}

__global__ void extern_quad(float *out) {
  dyn[T] = T;
  __syncthreads();
  float a = dyn[4 * T];
  float b = dyn[4 * T + 1];
  float c = dyn[4 * T + 2];
  float d = dyn[4 * T + 3];
  out[T] = a + b + c + d;
}

// Carving: a constant offset of 32 floats keeps 16-byte alignment, 33 does not.
__global__ void extern_carved_even(float *out) {
  float *b = dyn + 32;
  b[T] = T;
  __syncthreads();
  float x = b[2 * T];
  float y = b[2 * T + 1];
  out[T] = x + y;
}

__global__ void extern_carved_odd(float *out) {
  float *b = dyn + 33;
  b[T] = T;
  __syncthreads();
  float x = b[2 * T];
  float y = b[2 * T + 1];
  out[T] = x + y;
}

__global__ void extern_carved_runtime(float *out, int n) {
  float *b = dyn + n;
  b[T] = T;
  __syncthreads();
  float x = b[2 * T];
  float y = b[2 * T + 1];
  out[T] = x + y;
}

// Rows of 33 floats: row starts alternate in 8-byte alignment; rows of 34 do not.
__global__ void rows_33(float *out) {
  __shared__ float t[32][33];
  t[T % 32][T / 32] = T;
  __syncthreads();
  float x = t[threadIdx.y][2 * (T % 16)];
  float y = t[threadIdx.y][2 * (T % 16) + 1];
  out[T] = x + y;
}

__global__ void rows_34(float *out) {
  __shared__ float t[32][34];
  t[T % 32][T / 32] = T;
  __syncthreads();
  float x = t[threadIdx.y][2 * (T % 16)];
  float y = t[threadIdx.y][2 * (T % 16) + 1];
  out[T] = x + y;
}

// Fields of a struct of two floats (alignment 4).
struct Pair { float x, y; };
__global__ void struct_fields(float *out) {
  __shared__ Pair p[512];
  p[T].x = T;
  p[T].y = 2 * T;
  __syncthreads();
  float a = p[T ^ 1].x;
  float b = p[T ^ 1].y;
  out[T] = a + b;
}

// A loop the compiler unrolls over four adjacent words.
__global__ void unrolled_quad(float *out) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    acc += s[4 * T + k];
  out[T] = acc;
}

// Two stores whose second value reads back what the first wrote elsewhere.
__global__ void store_load_store(int *out, int j) {
  __shared__ int s[1024];
  s[2 * T] = T;
  int m = s[j];
  s[2 * T + 1] = m;
  __syncthreads();
  SINK(s[T]);
}

// Swapped order in the source: the higher word first.
__global__ void reversed_pair(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int b = s[2 * T + 1];
  int a = s[2 * T];
  SINK(a - b);
}

// A pair that starts at a uniform, run-time even offset.
__global__ void uniform_offset_pair(int *out, int base) {
  __shared__ int s[4096];
  s[T] = T;
  __syncthreads();
  int o = 2 * base + 2 * T;
  int a = s[o];
  int b = s[o + 1];
  SINK(a + b);
}

// Copy of a 8-byte struct through shared memory (a whole-object copy).
struct Two { int a, b; };
__global__ void struct_copy(Two *out, const Two *in) {
  __shared__ Two w[512];
  w[T] = in[T];
  __syncthreads();
  out[T] = w[T ^ 1];
}

// Where ptxas places static arrays: declaration order, natural alignment, or
// sorted? (char c[4] first: 's' at 4 in declaration order, at 0 if sorted by
// alignment; int s first and u[3] second: 's' at 0 in declaration order, at
// 12 if sorted by size.)
__global__ void char4_then_int(int *out) {
  __shared__ char c[4];
  __shared__ int s[1024];
  c[T % 4] = char(T);
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b + c[T % 4]);
}

__global__ void big_then_small(int *out) {
  __shared__ int s[1024];
  __shared__ int u[3];
  s[T] = T;
  u[T % 3] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b + u[T % 3]);
}

// Declared u first, but the code uses s first.
__global__ void used_first(int *out) {
  __shared__ int u[3];
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  u[T % 3] = a;
  __syncthreads();
  SINK(a + b + u[T % 3]);
}

// Dynamic shared memory after static arrays of 12 and 8 bytes.
__global__ void static12_then_dyn(float *out) {
  __shared__ int u[3];
  u[T % 3] = T;
  dyn[T] = T;
  __syncthreads();
  float a = dyn[2 * T];
  float b = dyn[2 * T + 1];
  out[T] = a + b + u[T % 3];
}

__global__ void static8_then_dyn_quad(float *out) {
  __shared__ int u[2];
  u[T % 2] = T;
  dyn[T] = T;
  __syncthreads();
  float a = dyn[4 * T];
  float b = dyn[4 * T + 1];
  float c = dyn[4 * T + 2];
  float d = dyn[4 * T + 3];
  out[T] = a + b + c + d + u[T % 2];
}

// A namespace-scope array of 12 bytes and a local one.
__shared__ int file_u[3];
__global__ void file_scope_then_local(int *out) {
  __shared__ int s[1024];
  file_u[T % 3] = T;
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b + file_u[T % 3]);
}

// Stores in reversed order: which line gets the STS.64?
__global__ void reversed_store(int *out, const int *in) {
  __shared__ int s[1024];
  s[2 * T + 1] = in[T];
  s[2 * T] = in[T + 1];
  __syncthreads();
  SINK(s[T ^ 1]);
}

// Four words aligned to 8 only: two LDS.64?
__global__ void quad_at_8(int *out) {
  __shared__ int s[4096];
  s[T] = T;
  __syncthreads();
  int a = s[4 * T + 2];
  int b = s[4 * T + 3];
  int c = s[4 * T + 4];
  int d = s[4 * T + 5];
  SINK(a + b + c + d);
}

// A warp shuffle between the two loads.
__global__ void shuffle_between(int *out) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = s[2 * T];
  a = __shfl_xor_sync(0xffffffffu, a, 1);
  int b = s[2 * T + 1];
  SINK(a + b);
}

// The first load guarded, the second not.
__global__ void guard_first(int *out, int n) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  int a = 0;
  if (T < n)
    a = s[2 * T];
  int b = s[2 * T + 1];
  SINK(a + b);
}

// Pair of stores under different guards.
__global__ void guarded_stores(int *out, int n) {
  __shared__ int s[1024];
  s[2 * T] = T;
  if (T < n)
    s[2 * T + 1] = n;
  __syncthreads();
  SINK(s[T]);
}

// Narrow accesses: stores of two shorts and four bytes, and arrays declared
// 16-byte aligned.
__global__ void short_pair_store(int *out, const short *in) {
  __shared__ short h[2048];
  h[2 * T] = in[T];
  h[2 * T + 1] = in[T + 32];
  __syncthreads();
  SINK(h[T ^ 1]);
}

__global__ void char_quad_store(int *out, const unsigned char *in) {
  __shared__ unsigned char q[4096];
  q[4 * T] = in[T];
  q[4 * T + 1] = in[T + 32];
  q[4 * T + 2] = in[T + 64];
  q[4 * T + 3] = in[T + 96];
  __syncthreads();
  SINK(q[T ^ 3]);
}

__global__ void char_quad_aligned(int *out) {
  __shared__ __align__(16) unsigned char q[4096];
  q[T] = (unsigned char)T;
  __syncthreads();
  int a = q[4 * T];
  int b = q[4 * T + 1];
  int c = q[4 * T + 2];
  int d = q[4 * T + 3];
  SINK(a + b + c + d);
}

__global__ void short_pair_aligned(int *out) {
  __shared__ __align__(16) short h[2048];
  h[T] = short(T);
  __syncthreads();
  int a = h[2 * T];
  int b = h[2 * T + 1];
  SINK(a + b);
}

__global__ void short_quad_store_aligned(int *out, const short *in) {
  __shared__ __align__(16) short h[4096];
  h[4 * T] = in[T];
  h[4 * T + 1] = in[T + 32];
  h[4 * T + 2] = in[T + 64];
  h[4 * T + 3] = in[T + 96];
  __syncthreads();
  SINK(h[T ^ 1]);
}

// A 2-byte pair loaded to be added (scan<short>'s first up-sweep step).
__global__ void short_pair_update(int *out) {
  __shared__ short h[2048];
  h[T] = short(T);
  __syncthreads();
  h[2 * T + 1] += h[2 * T];
  __syncthreads();
  SINK(h[T]);
}

// Two float2 loads side by side: one LDS.128?
__global__ void float2_pair(float *out) {
  __shared__ float2 v[1024];
  v[T] = make_float2(T, T);
  __syncthreads();
  float2 a = v[2 * T];
  float2 b = v[2 * T + 1];
  out[T] = a.x + a.y + b.x + b.y;
}

// A pair whose index the iterations of an unrolled loop shift under a guard
// (a wavelet step): is the third iteration's pair merged?
__global__ void halving(float *out, int width) {
  unsigned active = width >> 1, first = T * 2;
#pragma unroll
  for (int level = 0; level < 3; ++level) {
    if (T < active) {
      dyn[first] += dyn[first + 1];
      active >>= 1;
      first <<= 1;
    }
    __syncthreads();
  }
  out[T] = dyn[T];
}

// scan's first up-sweep step on ints: read 2t and 2t+1, write 2t+1.
__global__ void int_pair_update(int *out) {
  __shared__ int s[2048];
  s[T] = T;
  __syncthreads();
  s[2 * T + 1] += s[2 * T];
  __syncthreads();
  SINK(s[T]);
}

// 2-byte and 1-byte loads: the order of the pair and how the values are used
// (sign-extended, zero-extended, or kept narrow), on arrays of declared
// alignment 2 and 1 placed at offset 0.
__global__ void s16_asc_narrow(short *out) {
  __shared__ short h[2048];
  h[T] = short(T);
  __syncthreads();
  short a = h[2 * T];
  short b = h[2 * T + 1];
  out[T] = short(a + b);
}

__global__ void s16_desc_narrow(short *out) {
  __shared__ short h[2048];
  h[T] = short(T);
  __syncthreads();
  short b = h[2 * T + 1];
  short a = h[2 * T];
  out[T] = short(a - b);
}

__global__ void u16_asc_zext(int *out) {
  __shared__ unsigned short h[2048];
  h[T] = (unsigned short)T;
  __syncthreads();
  int a = h[2 * T];
  int b = h[2 * T + 1];
  SINK(a + b);
}

// The down-sweep of a Blelloch scan on shorts and on chars (offset 1).
__global__ void s16_down_sweep(short *out) {
  __shared__ short h[2048];
  h[T] = short(T);
  __syncthreads();
  short t = h[2 * T];
  h[2 * T] = h[2 * T + 1];
  h[2 * T + 1] += t;
  __syncthreads();
  out[T] = h[T];
}

__global__ void s8_down_sweep(char *out) {
  __shared__ char c[2048];
  c[T] = char(T);
  __syncthreads();
  char t = c[2 * T];
  c[2 * T] = c[2 * T + 1];
  c[2 * T + 1] += t;
  __syncthreads();
  out[T] = c[T];
}

__global__ void s32_down_sweep(int *out) {
  __shared__ int s[2048];
  s[T] = T;
  __syncthreads();
  int t = s[2 * T];
  s[2 * T] = s[2 * T + 1];
  s[2 * T + 1] += t;
  __syncthreads();
  out[T] = s[T];
}

// Eight 2-byte stores and loads of one thread in dynamic shared memory (nvcc
// declares it .align 16 whatever its type): a row of a half tile zero-filled.
extern __shared__ char raw[];
__global__ void extern_short_row(short *out) {
  short *h = reinterpret_cast<short *>(raw);
#pragma unroll
  for (int k = 0; k < 8; ++k)
    h[8 * T + k] = 0;
  __syncthreads();
  short a = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    a += h[8 * (T ^ 1) + k];
  out[T] = a;
}

// Separate variables side by side (2026-12-05): does ptxas merge accesses to
// two scalars it placed next to each other? (HeCBench adamw's `absmax_exp`,
// `absmax_sq`: one lane's two stores, measured as one 64-bit store.)
__global__ void scalar_pair_store(float *out) {
  __shared__ float ea;
  __shared__ float eb;
  if (T == 0) {
    ea = out[1];
    eb = out[2];
  }
  __syncthreads();
  float a = ea;
  float b = eb;
  SINK(a / b);
}

// Four scalars from 0, stored by one lane and read by all.
__global__ void scalar_quad(float *out) {
  __shared__ float q0;
  __shared__ float q1;
  __shared__ float q2;
  __shared__ float q3;
  if (T == 0) {
    q0 = out[1];
    q1 = out[2];
    q2 = out[3];
    q3 = out[4];
  }
  __syncthreads();
  float a = q0;
  float b = q1;
  float c = q2;
  float d = q3;
  SINK(a * b + c * d);
}

// The pair at 4 and 8 (after one float): not 8-byte aligned.
__global__ void scalar_pair_at4(float *out) {
  __shared__ float x0;
  __shared__ float ea;
  __shared__ float eb;
  if (T == 1)
    x0 = out[0];
  if (T == 0) {
    ea = out[1];
    eb = out[2];
  }
  __syncthreads();
  float a = ea;
  float b = eb;
  SINK(a / b + x0);
}

// The last word of an array and a scalar after it (offsets 8 and 12).
__global__ void array_then_scalar(float *out) {
  __shared__ float u[3];
  __shared__ float v;
  if (T < 3)
    u[T] = out[T];
  if (T == 3)
    v = out[3];
  __syncthreads();
  float a = u[2];
  float b = v;
  SINK(a / b);
}

// A helper's shared variables (declared in the helper, used first) and the
// kernel's pair after them, as in adamw: which does ptxas place first?
template <int N> __device__ float helper_reduce(float x) {
  __shared__ float r1[N];
  __shared__ float r2[N];
  r1[T % N] = x;
  r2[T % N] = 2 * x;
  __syncthreads();
  return r1[0] + r2[1];
}

__global__ void helper_then_pair(float *out) {
  __shared__ float ea;
  __shared__ float eb;
  float x = helper_reduce<3>(out[T]);
  if (T == 0) {
    ea = x;
    eb = 2 * x;
  }
  __syncthreads();
  float a = ea;
  float b = eb;
  SINK(a / b);
}

// Two ints and a global store between them (adamw stores the values to
// global memory too, between).
__global__ void scalar_pair_global_between(int *out) {
  __shared__ int ia;
  __shared__ int ib;
  if (T == 0) {
    int a = out[1], b = out[2];
    out[blockIdx.x + 8] = a;
    ia = a;
    out[blockIdx.x + 16] = b;
    ib = b;
  }
  __syncthreads();
  int a = ia;
  int b = ib;
  SINK(a + b);
}
