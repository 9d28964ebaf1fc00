// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A library function that executes a block barrier: cuRAND's MTGP32 generator
// (curand_mtgp32_kernel.h) updates the block's shared state between two
// __syncthreads(), so every thread of the block must call it.  Calling it from
// one thread is divergent.  (GPUVerify's testsuite/CUDA
// curand_tests/fail/curand_mtgp32_block_race expects only a race: GPUVerify's
// own model of curand() has no barrier.)
#include <curand_kernel.h>

__global__ void oneThreadDraws(curandStateMtgp32_t *state, float *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = curand(state);
// CHECK: library-barrier-curand.cu:[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}}'curand{{.*}} is divergent within a warp: lane 0 of warp 0 reaches it, lanes 1-31 do not [cuda-barrier-divergence]
}

// Every thread draws: silent.
__global__ void everyThreadDraws(curandStateMtgp32_t *state, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = curand(state);
}

void launch(curandStateMtgp32_t *state, float *out) {
  oneThreadDraws<<<2, 256>>>(state, out);
  everyThreadDraws<<<2, 256>>>(state, out);
}
