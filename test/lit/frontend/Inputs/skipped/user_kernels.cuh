// A header of the user's, included with -I: its skipped kernels are named.
#pragma once
#ifdef USER_HEADER_FAST_PATH
__global__ void header_kernel(float *out) { out[threadIdx.x] = 0; }
#endif
