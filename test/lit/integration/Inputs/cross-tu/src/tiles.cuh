// A self-contained header of kernels, launched from main.cu only.
#pragma once

template <int W>
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[32][W];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * 32 + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void column(float *out) {
  __shared__ float s[64][32];
  s[threadIdx.x][threadIdx.y] = 0;
  out[threadIdx.x] = s[threadIdx.y][threadIdx.x];
}
