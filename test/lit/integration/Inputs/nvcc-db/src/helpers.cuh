// Not in the database: borrows k.cu's flags (WIDTH, the include path).
#include "params.h"
__global__ void rowsum(float *out) {
  __shared__ float s[ROWS][WIDTH];
  s[threadIdx.x][0] = 1;
  out[threadIdx.x] = s[threadIdx.x][1];
}
