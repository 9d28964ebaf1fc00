#include "tiles.cuh"
void launch(float *o) { transposeTile<32><<<1, dim3(32, 32)>>>(o); }
