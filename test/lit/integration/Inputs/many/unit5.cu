#include "include/shared_tile.cuh"
__global__ void kernel5(float *out) {
  __shared__ float s[32 * 5];
  s[threadIdx.x * 5] = 0; __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 5];
}
void launch5(float *o) { kernel5<<<1, 32>>>(o); }
