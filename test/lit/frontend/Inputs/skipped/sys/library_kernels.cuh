// A library header included with -isystem: not the user's code, not named.
#pragma once
#if 0
__global__ void library_kernel(float *out) { out[threadIdx.x] = 0; }
#endif
