// Templates only: on its own, nothing is instantiated, so nothing is analysed.
#pragma once
template <int N> __global__ void transposeTile(float *out) {
  __shared__ float tile[N][N];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
