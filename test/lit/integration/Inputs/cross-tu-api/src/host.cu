#include <cuda_runtime.h>
#include "rows.cuh"

void start(float *out) {
  void *args[] = {&out};
  cudaLaunchKernel((const void *)gather, dim3(2), dim3(32, 2), args, 0, 0);
  cudaLaunchConfig_t cfg = {dim3(1), dim3(64)};
  cudaLaunchKernelEx(&cfg, widened, out);
}
