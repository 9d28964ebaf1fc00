#include "tiles.cuh"

void run(const float *in, float *out) {
  transposeTile<32><<<1, dim3(32, 8)>>>(in, out);
  transposeTile<33><<<1, dim3(32, 8)>>>(in, out);
  column<<<1, dim3(16, 4)>>>(out);
}
