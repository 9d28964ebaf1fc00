#include "fast_paths.cuh"
__global__ void a_kernel(float *out) { out[threadIdx.x] = 2; }
