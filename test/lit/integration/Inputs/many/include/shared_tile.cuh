// Included by every .cu beside it: its finding must be reported once.
#pragma once
// cuda-bank-lint: block-dim(32, 32)
__global__ void headerKernel(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
