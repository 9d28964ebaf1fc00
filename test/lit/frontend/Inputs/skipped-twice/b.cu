#include "fast_paths.cuh"
#if 0
__global__ void b_old(float *out) { out[threadIdx.x] = 3; }
#endif
__global__ void b_kernel(float *out) { out[threadIdx.x] = 4; }
