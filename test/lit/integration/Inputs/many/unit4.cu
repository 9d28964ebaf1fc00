#include "include/shared_tile.cuh"
__global__ void kernel4(float *out) {
  __shared__ float s[32 * 4];
  s[threadIdx.x * 4] = 0; __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 4];
}
void launch4(float *o) { kernel4<<<1, 32>>>(o); }
