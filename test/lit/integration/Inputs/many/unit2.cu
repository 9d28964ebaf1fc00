#include "include/shared_tile.cuh"
__global__ void kernel2(float *out) {
  __shared__ float s[32 * 2];
  s[threadIdx.x * 2] = 0; __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 2];
}
void launch2(float *o) { kernel2<<<1, 32>>>(o); }
