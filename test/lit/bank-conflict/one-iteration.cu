// Singular and plural: a loop of one iteration is "its 1 iteration", not
// "each of the 1 iterations"; a loop the access does not depend on (the same
// verdict in every iteration) is "every iteration". The trip counts come from
// the launch's argument n = 1 (a constant bound would be unrolled by the
// compiler: no iteration to state).
// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not="each of the 1 "

__global__ void k(float *out, int n) {
  __shared__ float s[32][32];
  // CHECK: one-iteration.cu:[[# @LINE+2]]:5: warning: 32-way bank conflict writing 's': 32 lanes of warp 0 write 32 distinct words of bank 0 (32 wavefronts, ideal 1) in its 1 iteration (j=0) [cuda-shared-bank-conflict]
  for (int j = 0; j < n; ++j)
    s[threadIdx.x][j] = 1.0f;
  // The barrier keeps the load in the loop.
  // CHECK: one-iteration.cu:[[# @LINE+3]]:25: warning: 32-way bank conflict reading 's': {{.*}} (32 wavefronts, ideal 1) in every iteration [cuda-shared-bank-conflict]
  for (int j = 0; j < n + 3; ++j) {
    __syncthreads();
    out[threadIdx.x] += s[threadIdx.x][0];
  }
  // CHECK: one-iteration.cu:[[# @LINE+2]]:5: warning: {{.*}} in each of the 2 iterations [cuda-shared-bank-conflict]
  for (int j = 0; j < n + 1; ++j)
    s[threadIdx.x][j * 3] = 2.0f;
}

void launch(float *o) { k<<<1, 32>>>(o, 1); }
