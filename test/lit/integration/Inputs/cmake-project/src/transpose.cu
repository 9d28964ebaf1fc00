#include "tile.cuh"

__global__ void transposeNaive(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  tile[threadIdx.y][threadIdx.x] = idata[threadIdx.y * TILE_DIM + threadIdx.x];
  __syncthreads();
  odata[threadIdx.y * TILE_DIM + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launchTranspose(float *o, const float *i) {
  transposeNaive<<<1, dim3(TILE_DIM, TILE_DIM)>>>(o, i);
}
