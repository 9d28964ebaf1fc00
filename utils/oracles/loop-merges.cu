// What nvcc (NVVM's unroller, then ptxas) makes of loops over consecutive shared words whose
// trip count is a run-time value, and of loads of consecutive words between selects (CUB).
// Compiled only (nvcc 13.0, nvdisasm on the H200 machine, 2026-11-27); lit device-ir/loop-merges.test:
//   nvcc -arch=sm_90 -O3 -lineinfo -cubin loop-merges.cu -o loop-merges.cubin
//   nvdisasm -g -c loop-merges.cubin > loop-merges.sass
//   python3 utils/oracles/merges_table.py loop-merges.sass > test/data/h100-loop-merges.csv
// The SASS line table gives each line's widths; the test compares the tool's with them.
#define T threadIdx.x

// One lane sums s[0..n): start 0, the first word 16-byte aligned.
__global__ void lane_sum_from0(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = 0;
    for (int i = 0; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

// The same from 1 (llm.c softmax_forward_kernel4's max over warps).
__global__ void lane_sum_from1(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = s[0];
    for (int i = 1; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

// Every lane reads the same words (a warp-uniform loop).
__global__ void uniform_sum_from0(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < n; i++)
    v += s[i];
  out[T] = v;
}

// One lane stores s[0..n) from global memory (a coordinate row).
__global__ void lane_store_from0(float *out, const float *in, int n) {
  __shared__ float s[1024];
  if (T == 0)
    for (int i = 0; i < n; i++)
      s[i] = in[i * 7];
  __syncthreads();
  out[T] = s[T];
}

// Trip count from the block shape (groupnorm's num_warps), two arrays.
__global__ void lane_two_arrays_warps(float *out) {
  __shared__ float a[32];
  __shared__ float b[32];
  if (T % 32 == 0) {
    a[T / 32] = T;
    b[T / 32] = 2 * T;
  }
  __syncthreads();
  if (T == 0) {
    float x = 0, y = 0;
    for (int i = 0; i < blockDim.x / 32; i++) {
      x += a[i];
      y += b[i];
    }
    out[0] = x;
    out[1] = y;
  }
}

// Each lane its own row of 32 words (16-byte aligned rows).
__global__ void row_sum_aligned(float *out, int n) {
  __shared__ float s[32 * 64];
  for (int i = T; i < 32 * 64; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < n; i++)
    v += s[T * 64 + i];
  out[T] = v;
}

// Each lane its own row of 33 words (rows not aligned).
__global__ void row_sum_padded(float *out, int n) {
  __shared__ float s[32 * 65];
  for (int i = T; i < 32 * 65; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < n; i++)
    v += s[T * 65 + i];
  out[T] = v;
}

// Integer loop, trip count a parameter, start 0, one lane, int max.
__global__ void lane_max_int(int *out, int n) {
  __shared__ int s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    int v = s[0];
    for (int i = 0; i < n; i++)
      v = max(v, s[i]);
    out[0] = v;
  }
}

// CUB's warp aggregates: block_aggregate = a[0], then for each later warp
// w: if (warp == w) prefix = block_aggregate; block_aggregate += a[w].
template <int WARPS> __global__ void warp_aggregates(int *out) {
  __shared__ int a[WARPS];
  int warp = T / 32;
  if (T % 32 == 31)
    a[warp] = out[T];
  __syncthreads();
  int prefix = 0;
  int total = a[0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) {
    if (warp == w)
      prefix = total;
    total += a[w];
  }
  out[T] = prefix + total;
}
template __global__ void warp_aggregates<4>(int *);
template __global__ void warp_aggregates<8>(int *);
template __global__ void warp_aggregates<16>(int *);
template __global__ void warp_aggregates<32>(int *);

// Loops from a word other than 0 (2026-12-05). llm.c softmax_forward_kernel4's
// max over the warps as written there: from 1, blockDim.x / 32 iterations.
__global__ void lane_max_from1_warps(float *out) {
  __shared__ float s[32];
  int warps = blockDim.x / 32;
  if (T % 32 == 0)
    s[T / 32] = T;
  __syncthreads();
  if (T == 0) {
    float v = s[T];
    for (int i = 1; i < warps; i++)
      v = fmaxf(v, s[i]);
    out[0] = v;
  }
}

// From 2 and from 3, the trip count a parameter.
__global__ void lane_sum_from2(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = 0;
    for (int i = 2; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

__global__ void lane_sum_from3(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = 0;
    for (int i = 3; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

// From 4 (a 16-byte boundary, but not 0).
__global__ void lane_sum_from4(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = 0;
    for (int i = 4; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

// From a run-time start.
__global__ void lane_sum_fromk(float *out, int k, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  if (T == 0) {
    float v = 0;
    for (int i = k; i < n; i++)
      v += s[i];
    out[0] = v;
  }
}

// Every lane, from 1.
__global__ void uniform_sum_from1(float *out, int n) {
  __shared__ float s[1024];
  s[T] = T;
  __syncthreads();
  float v = 0;
  for (int i = 1; i < n; i++)
    v += s[i];
  out[T] = v;
}

// One lane's stores from 1.
__global__ void lane_store_from1(float *out, const float *in, int n) {
  __shared__ float s[1024];
  if (T == 0)
    for (int i = 1; i < n; i++)
      s[i] = in[i * 7];
  __syncthreads();
  out[T] = s[T];
}
