// A header both translation units include: its kernel in skipped code is
// one note and one kernel of the summary per run.
#pragma once
#if defined(FAST_PATH_SM100)
__global__ void fast_kernel(float *out) { out[threadIdx.x] = 1; }
#endif
