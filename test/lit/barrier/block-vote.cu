// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --block-dim=16,8 %s 2>&1 | %FileCheck %s --check-prefix=ROWS --implicit-check-not=warning:
// A block vote through shared memory: each warp writes its vote to
// flags[warp], a barrier, then every thread reads flags[threadIdx.x % 32]
// (no thread writes flags before the next barrier) and the warp votes
// again. Lane l of every warp reads the same word, so every warp votes
// over the same 32 values and gets the same answer: the loop's exit is
// the same in every thread of the block, as long as the lanes of a warp
// are threadIdx.x % 32 (a 1-D block, or blockDim.x a multiple of 32).

__device__ __forceinline__ int warp_all(int x) { return __all_sync(0xffffffffu, x); }

__global__ void __launch_bounds__(128) vote_loop(const float *mask, int *out, int n) {
  __shared__ int flags[32];
  const int tid = threadIdx.x;
  int k = n - 1;
  for (; k >= 0; --k) {
    int all = mask[k * 128 + tid] < 0.0f;
    all = warp_all(all);
    if (tid % 32 == 0)
      flags[tid / 32] = all;
    __syncthreads();
    all = flags[tid % 32];
    __syncthreads();
// ROWS: block-vote.cu:[[@LINE-3]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    all = warp_all(all);
    if (!all)
      break;
  }
  if (tid == 0)
    out[blockIdx.x] = k;
}

// The same with ballots, and a read under a condition on the lane (a
// merge of two values, each a function of the lane): the same in every warp.
__global__ void __launch_bounds__(256) ballot_loop(const int *data, int *out) {
  __shared__ unsigned votes[32];
  int round = 0;
  while (true) {
    unsigned b = __ballot_sync(0xffffffffu, data[round * 256 + threadIdx.x] != 0);
    if (threadIdx.x % 32 == 0)
      votes[threadIdx.x / 32] = b;
    __syncthreads();
    unsigned mine = threadIdx.x % 32 < 8 ? votes[threadIdx.x & 7] : 0u;
    __syncthreads();
// ROWS: block-vote.cu:[[@LINE-3]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    if (__ballot_sync(0xffffffffu, mine != 0) == 0)
      break;
    ++round;
  }
  out[threadIdx.x] = round;
}

// Each warp reads its own flag: warps may disagree.
__global__ void __launch_bounds__(128) own_flag(const float *mask, int *out, int n) {
  __shared__ int flags[32];
  const int tid = threadIdx.x;
  for (int k = n - 1; k >= 0; --k) {
    int all = __all_sync(0xffffffffu, mask[k * 128 + tid] < 0.0f);
    if (tid % 32 == 0)
      flags[tid / 32] = all;
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    if (!__all_sync(0xffffffffu, flags[tid / 32]))
      break;
  }
  out[threadIdx.x] = 0;
}

// A thread writes the flags between the barrier and the next one: a warp
// may read the old value or the new one.
__global__ void __launch_bounds__(128) racing_write(const float *mask, int *out, int n) {
  __shared__ int flags[32];
  const int tid = threadIdx.x;
  for (int k = n - 1; k >= 0; --k) {
    int all = __all_sync(0xffffffffu, mask[k * 128 + tid] < 0.0f);
    if (tid % 32 == 0)
      flags[tid / 32] = all;
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    all = flags[tid % 32];
    if (tid == 64)
      flags[5] = 0;
    if (!__all_sync(0xffffffffu, all))
      break;
  }
  out[threadIdx.x] = 0;
}

// A vote of only some lanes (mask 0xffff) is not over the whole warp.
__global__ void __launch_bounds__(128) half_mask(const float *mask, int *out, int n) {
  __shared__ int flags[32];
  const int tid = threadIdx.x;
  for (int k = n - 1; k >= 0; --k) {
    if (tid % 32 == 0)
      flags[tid / 32] = mask[k * 128 + tid] < 0.0f;
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    int all = flags[tid % 32];
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    if (!__all_sync(0xffffu, all))
      break;
  }
  out[threadIdx.x] = 0;
}

// A vote written by hand: a butterfly of __shfl_xor_sync over offsets 16,
// 8, 4, 2, 1 combining with a commutative operation (here `&&`, and a float
// sum) leaves every lane with the same value, a function of the 32 values
// voted on: of a lane-indexed value, the same in every warp.
template <int width = 32>
__device__ __forceinline__ int warp_and(int x) {
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
  return x;
}
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

__global__ void __launch_bounds__(128) butterfly_and(const float *mask, int *out, int n) {
  __shared__ int flags[32];
  const int tid = threadIdx.x;
  int k = n - 1;
  for (; k >= 0; --k) {
    int all = warp_and(mask[k * 128 + tid] < 0.0f);
    if (tid % 32 == 0)
      flags[tid / 32] = all;
    __syncthreads();
    all = flags[tid % 32];
    __syncthreads();
// ROWS: block-vote.cu:[[@LINE-3]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    if (!warp_and(all))
      break;
  }
  out[threadIdx.x] = k;
}

__global__ void __launch_bounds__(128) butterfly_sum(const float *v, float *out) {
  __shared__ float part[32];
  int k = 0;
  while (true) {
    float s = warp_sum(v[k * 128 + threadIdx.x]);
    if (threadIdx.x % 32 == 0)
      part[threadIdx.x / 32] = s;
    __syncthreads();
    float t = threadIdx.x % 32 < 4 ? part[threadIdx.x % 32] : 0.0f;
    __syncthreads();
// ROWS: block-vote.cu:[[@LINE-3]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    if (warp_sum(t) > 1.0f)
      break;
    ++k;
  }
  out[threadIdx.x] = k;
}

// Half a butterfly (offsets 16 and 8): lanes 0-7 and 8-15 may still differ.
__global__ void __launch_bounds__(128) half_butterfly(const float *v, float *out) {
  __shared__ float part[32];
  int k = 0;
  while (true) {
    if (threadIdx.x % 32 == 0)
      part[threadIdx.x / 32] = v[k];
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    float t = part[threadIdx.x % 32];
    __syncthreads();
// CHECK: block-vote.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
// ROWS: block-vote.cu:[[@LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop
    t += __shfl_xor_sync(0xffffffff, t, 16, 32);
    t += __shfl_xor_sync(0xffffffff, t, 8, 32);
    if (t > 1.0f)
      break;
    ++k;
  }
  out[threadIdx.x] = k;
}
