// RUN: %cbl %s 2>&1 | %FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=remark:
// Constructs on which every thread of a block agrees, although the source
// reads per-thread values or calls: no barrier finding.
#include <type_traits>

struct Tile { int rows, kind; };
constexpr Tile tileFor(int Kind, int Cols) { return {Cols >= 64 ? 8 : 4, Kind == 3 ? 99 : Kind}; }

// A constexpr function of template arguments decides an early return.
template <int Kind, int Cols> __global__ void constexprExit(float *out) {
  __shared__ float buf[128];
  if (tileFor(Kind, Cols).kind == 99)
    return;
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[127 - threadIdx.x];
}
template __global__ void constexprExit<3, 64>(float *);
template __global__ void constexprExit<1, 32>(float *);

// The start and the bound both carry the thread's offset: steps times the
// same count for everyone.
__global__ void offsetLoop(const float *in, float *out, int steps, int width) {
  __shared__ float buf[128];
  int lane = threadIdx.x;
  for (int p = lane; p < steps * width + lane; p += width) {
    buf[lane] = in[p];
    __syncthreads();
    out[p] = buf[127 - lane];
    __syncthreads();
  }
}

// A per-block count read through a restrict alias of a parameter, or under
// a null test: one address for the whole block.
__global__ void aliasedCount(const int *counts, float *out) {
  __shared__ float buf[128];
  const int *__restrict__ c = counts;
  int n = c ? c[blockIdx.x] : 0;
  for (int i = 0; i < n; ++i) {
    buf[threadIdx.x] = out[i];
    __syncthreads();
    out[i] += buf[127 - threadIdx.x];
    __syncthreads();
  }
}

// Work split over blocks from blockIdx, gridDim and parameters (stream-k).
__global__ void streamK(float *out, int iters, int total) {
  __shared__ float buf[128];
  int per = (total + gridDim.x - 1) / gridDim.x;
  int begin = blockIdx.x * per, end = min(begin + per, total);
  for (int k = begin; k < end; k += iters) {
    buf[threadIdx.x] = out[k];
    __syncthreads();
    out[k] = buf[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
}

// __syncthreads_or gives every thread the same answer.
__global__ void voteExit(const int *flags, float *out) {
  __shared__ float buf[128];
  int mine = flags[blockIdx.x * blockDim.x + threadIdx.x];
  if (!__syncthreads_or(mine))
    return;
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[127 - threadIdx.x];
}

// A vote through shared memory: written before a barrier, read by every
// thread at the same address after it.
__global__ void sharedVote(const float *in, float *out, int n) {
  __shared__ int done;
  __shared__ float buf[128];
  for (int it = 0; it < n; ++it) {
    if (threadIdx.x == 0)
      done = in[it] > 0.f;
    __syncthreads();
    if (done)
      break;
    buf[threadIdx.x] = in[it * 128 + threadIdx.x];
    __syncthreads();
    out[it * 128 + threadIdx.x] = buf[127 - threadIdx.x];
  }
}

// A launch inside a host lambda runs the kernel in a grid of its own.
template <int... Ns> void launchAll(float *x, int cols) {
  auto one = [=](auto N) -> bool {
    constexpr int n = decltype(N)::value;
    if (cols != n)
      return false;
    constexprExit<1, n><<<1, 128>>>(x);
    return true;
  };
  (one(std::integral_constant<int, Ns>{}) || ...);
}
void host(float *x, int cols) { launchAll<32, 64>(x, cols); }
