// A header with no entry of its own: it borrows the flags of the file that
// includes it (TILE comes from -DTILE=32).
#pragma once

__global__ void columns(float *out) {
  __shared__ float t[TILE][TILE];
  t[threadIdx.x][threadIdx.y] = 0;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
