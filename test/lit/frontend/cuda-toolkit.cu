// A kernel that includes <cuda_runtime.h> is analysed with the CUDA 13 toolkit
// when installed and with the built-in prelude; both give the same verdicts.
// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers --format=json %s | %FileCheck %s --check-prefixes=JSON,HEADERS
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefixes=JSON,PRELUDE
// RUN: %cbl-any --cuda-mode=headers %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>

__global__ void mixed(float *out, __half *h) {
  __shared__ float tile[32][32];
  __shared__ __half hs[64];
  __shared__ double2 d2[32];
  unsigned t = threadIdx.x;
  tile[t][0] = out[t];
  hs[t * 2] = h[t];
  d2[t] = make_double2(1.0, 2.0);
  __syncthreads();
  out[t] = tile[0][t] + d2[t].y;
}
// TEXT: cuda-toolkit.cu:[[# @LINE-6]]:3: warning: 32-way bank conflict writing 'tile'
// TEXT: cuda-toolkit.cu:[[# @LINE-3]]:25: warning: 2-way bank conflict reading 'd2': 2 lanes of warp 0 read 2 distinct words of bank 2 in phase 0 of 2 (4 wavefronts, ideal 2)

int main() {
  float *o;
  __half *h;
  cudaMalloc(&o, 32 * sizeof(float));
  cudaMalloc(&h, 32 * sizeof(__half));
  mixed<<<1, 32>>>(o, h);
  cudaDeviceSynchronize();
  return 0;
}
// JSON: "expression": "hs[t * 2]",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON-NEXT: "width": 2,
// JSON: "expression": "d2[t]",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 4,
// JSON-NEXT: "width": 16,
// HEADERS: "mode": "cuda-headers",
// PRELUDE: "mode": "prelude",
