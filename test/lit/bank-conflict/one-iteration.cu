// Singular and plural: a loop of one iteration is "its 1 iteration", not
// "each of the 1 iterations"; a loop the access does not depend on (not run,
// the same verdict in every iteration) is "every iteration". The AST walker
// enumerates these loops (the device-IR front end unrolls them: no iteration
// to state).
// RUN: %cbl --device-ir=false %s 2>&1 | %FileCheck %s --implicit-check-not="each of the 1 "

__global__ void k(float *out) {
  __shared__ float s[32][32];
  // CHECK: one-iteration.cu:[[# @LINE+2]]:5: warning: 32-way bank conflict writing 's': 32 lanes of warp 0 write 32 distinct words of bank 0 (32 wavefronts, ideal 1) in its 1 iteration (j=0) [cuda-shared-bank-conflict]
  for (int j = 0; j < 1; ++j)
    s[threadIdx.x][j] = 1.0f;
  // CHECK: one-iteration.cu:[[# @LINE+2]]:25: warning: 32-way bank conflict reading 's': {{.*}} (32 wavefronts, ideal 1) in every iteration [cuda-shared-bank-conflict]
  for (int j = 0; j < 4; ++j)
    out[threadIdx.x] += s[threadIdx.x][0];
  // CHECK: one-iteration.cu:[[# @LINE+2]]:5: warning: {{.*}} in each of the 2 iterations [cuda-shared-bank-conflict]
  for (int j = 0; j < 2; ++j)
    s[threadIdx.x][j * 3] = 2.0f;
}

void launch(float *o) { k<<<1, 32>>>(o); }
