#include "tile.cuh"

__global__ void scale(float *data) {
  __shared__ float buf[TILE_DIM * 2];
  buf[threadIdx.x * 2] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = buf[threadIdx.x * 2];
}

void launchScale(float *d) { scale<<<1, 32>>>(d); }
