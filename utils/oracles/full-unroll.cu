// Which loops of a constant trip count nvcc unrolls whole: four loop bodies,
// each at trip counts around where NVVM stops unrolling them (the template
// argument N). Compiled only, to PTX (nvcc 13.0, no device needed):
//   nvcc -std=c++17 -O3 -arch=sm_90 -ptx full-unroll.cu -o full-unroll.ptx
// A kernel whose PTX has as many shared loads and stores as the loop has
// iterations (plus those outside it) is unrolled whole; one with a backward
// branch and a few is a loop. Measured 2026-12-04, the longest trip count
// unrolled whole, of those listed below (the next one listed is not):
//   fill (a chain through the array, one lane):    39 (47 not)
//   pair_sum (s[i] * s[i + 1], every lane):         96 (128 not)
//   lane_row (s[tid * 512 + i] = ..., per lane):    64 (96 not)
//   strided_copy (s[tid + 32 i] = in[...] * 2 + 1): 48 (64 not)
// LLVM's -O3 at its full-unroll threshold of 300 stops at 27, 48, 32 and 24;
// at 600 (the tool's pipeline since 2026-12-05) at 47, 96, 64 and 48.
// Nests (measured 2026-12-05): an outer loop whose inner loop has a trip count
// the outer counter sets (tri_nest, HeCBench lud's `for (j = 0; j < i; j++)`)
// stays a loop at every N, even 4 (NVVM unrolls the inner loop at run time,
// by 8, and keeps the outer); a nest of constant loops is unrolled whole
// (const_nest); an outer loop whose inner loop's trip count is not a
// computable count (bitonic: `stride >>= 1`) is unrolled whole, inner loops
// too. The tool does the same (NvccUnrolling.cpp; lit device-ir/loop-nests.test).

// HeCBench bh's tree-level table: dq[i] = dq[i - 1] * 0.25f; dq[i - 1] += eps.
template <int N> __global__ void fill(const float *radius, float itol, float eps, float *out) {
  __shared__ float dq[64];
  int i;
  if (threadIdx.x == 0) {
    float t = *radius * 2;
    dq[0] = t * t * itol;
    for (i = 1; i < N; i++) {
      dq[i] = dq[i - 1] * 0.25f;
      dq[i - 1] += eps;
    }
    dq[i - 1] += eps;
  }
  __syncthreads();
  out[threadIdx.x] = dq[threadIdx.x % N];
}

template <int N> __global__ void pair_sum(float *out) {
  __shared__ float s[2048];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < N; i++)
    v += s[i] * s[i + 1];
  out[threadIdx.x] = v;
}

template <int N> __global__ void lane_row(float *out) {
  __shared__ float s[32 * 512];
  for (int i = 0; i < N; i++)
    s[threadIdx.x * 512 + i] = i * threadIdx.x + 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

template <int N> __global__ void strided_copy(float *out, const float *in) {
  __shared__ float s[4096];
  for (int i = 0; i < N; i++)
    s[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i] * 2.0f + 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

template __global__ void fill<40>(const float *, float, float, float *);
template __global__ void fill<48>(const float *, float, float, float *);
template __global__ void pair_sum<96>(float *);
template __global__ void pair_sum<128>(float *);
template __global__ void lane_row<64>(float *);
template __global__ void lane_row<96>(float *);
template __global__ void strided_copy<48>(float *, const float *);
template __global__ void strided_copy<64>(float *, const float *);

// Nests.
template <int N> __global__ void tri_nest(float *out) {
  __shared__ float s[32 * 16];
  __shared__ float d[16 * 16];
  int t = threadIdx.x;
  s[t] = t;
  d[t] = 2 * t;
  __syncthreads();
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++)
      s[t * N + i] -= s[t * N + j] * d[j * N + i];
    s[t * N + i] /= d[i * N + i];
  }
  __syncthreads();
  out[t] = s[t];
}

template <int N, int M> __global__ void const_nest(float *out) {
  __shared__ float s[32 * 64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      v += s[t * 64 + i * M + j];
  out[t] = v;
}

__global__ void bitonic(unsigned *keys) {
  __shared__ unsigned s[1024];
  unsigned tid = threadIdx.x;
  for (unsigned size = 2; size <= 1024; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * tid - (tid & (stride - 1));
      unsigned a = s[pos], b = s[pos + stride];
      if (a > b) {
        s[pos] = b;
        s[pos + stride] = a;
      }
    }
}

template __global__ void tri_nest<4>(float *);
template __global__ void tri_nest<16>(float *);
template __global__ void const_nest<4, 4>(float *);
template __global__ void const_nest<16, 4>(float *);
