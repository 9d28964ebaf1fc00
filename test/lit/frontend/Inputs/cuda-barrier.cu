// A __shared__ cuda::barrier: nvcc warns that it does not run the constructor
// (#20054) and compiles the kernel; the tool analyses the rest of the kernel.
#include <cuda/barrier>

__global__ void phased(float *out) {
  __shared__ float s[64];
  // Line 8: the barrier object.
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  s[threadIdx.x * 2 % 64] = out[threadIdx.x];
  bar.arrive_and_wait();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 32];
}
