#include "include/shared_tile.cuh"
__global__ void kernel6(float *out) {
  __shared__ float s[32 * 6];
  s[threadIdx.x * 6] = 0; __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 6];
}
void launch6(float *o) { kernel6<<<1, 32>>>(o); }
