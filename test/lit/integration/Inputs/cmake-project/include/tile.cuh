// A kernel in a header: its conflict is reported once, with -p flags.
#pragma once
#ifndef TILE_DIM
#error "TILE_DIM comes from the compile database"
#endif

// cuda-bank-lint: block-dim(32, 32)
__global__ void columnSum(float *out, const float *in) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE_DIM + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
