// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=remark:
// Conditions that every thread of the block evaluates alike: no findings.
// CHECK-NOT: {{warning|remark}}:

__global__ void onParam(float *out, int n) {
  if (n > 4)
    __syncthreads();
  out[threadIdx.x] = 0;
}

__global__ void onBlockIdx(float *out) {
  if (blockIdx.x % 2 == 0) {
    __syncthreads();
  }
  out[threadIdx.x] = 0;
}

// A flag in shared memory, written by one thread and read by all after a barrier.
__global__ void onSharedFlag(const int *in, float *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = in[0];
  __syncthreads();
  if (flag)
    __syncthreads();
  out[threadIdx.x] = 0;
}

template <int Mode> __global__ void onTemplate(float *out) {
  if (Mode == 1)
    __syncthreads();
  out[threadIdx.x] = 0;
}
template __global__ void onTemplate<0>(float *);
template __global__ void onTemplate<1>(float *);

// Loads from global memory at addresses that are the same for every thread.
struct Params { int steps; int flags[4]; };
__global__ void onGlobalLoad(const int *cfg, Params p, float *out) {
  if (cfg[blockIdx.x] > 0)
    __syncthreads();
  if (p.flags[2] != 0)
    __syncthreads();
  for (int s = 0; s < p.steps; ++s)
    __syncthreads();
  out[threadIdx.x] = 0;
}

// The classic tree reduction: the barrier is outside the thread condition.
__global__ void reduce(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The block shape proves that every thread takes the same path.
__global__ void wholeBlock(float *out) {
  if (threadIdx.x < 64)
    __syncthreads();
  if (threadIdx.y == 0)
    __syncthreads();
  out[threadIdx.x] = 0;
}

// Warp-level sync in a warp-uniform condition is fine.
__global__ void warpSync(float *out) {
  int warp_id = threadIdx.x / 32;
  if (warp_id == 0) {
    out[threadIdx.x] = 1;
    __syncwarp();
  }
}

void launch(float *f, int *i, Params p) {
  reduce<<<8, 256>>>(f);
  wholeBlock<<<1, 64>>>(f);
  warpSync<<<1, 128>>>(f);
}

// A loop entered straight from the exit of a loop whose trip count differs
// between threads (no block between them: a tree reduction after a
// block-stride loop, its outer loop kept as NVVM keeps it because its inner
// loop's count depends on the stride): every thread leaves the first loop
// and reaches the barrier.
__global__ void loopAfterLoop(float *out, int n) {
  __shared__ float acc[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
    float sum = 0;
    for (int p = i; p < n; p += 1024)
      sum += out[p];
    acc[i] = sum;
  }
  for (int stride = 512; stride > 0; stride >>= 1) {
    __syncthreads();
    for (int i = threadIdx.x; i < stride; i += blockDim.x)
      acc[i] += acc[stride + i];
  }
  if (threadIdx.x == 0)
    out[0] = acc[0];
}
