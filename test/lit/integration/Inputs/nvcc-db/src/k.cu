#include "params.h"
#ifndef FROM_RSP
#error "FROM_RSP comes from the options file"
#endif
__global__ void column(float *out) {
  __shared__ float t[ROWS][WIDTH];
  t[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][0];
}
void launch(float *o) { column<<<1, 32>>>(o); }
