#include "tiles.cuh"
void launch2(float *o) { transposeTile<16><<<1, dim3(16, 16)>>>(o); }
