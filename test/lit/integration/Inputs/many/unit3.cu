#include "include/shared_tile.cuh"
__global__ void kernel3(float *out) {
  __shared__ float s[32 * 3];
  s[threadIdx.x * 3] = 0; __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 3];
}
void launch3(float *o) { kernel3<<<1, 32>>>(o); }
