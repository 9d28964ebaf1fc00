// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN

// Tiled matrix multiply: As[ty][k] is a broadcast within each half of the
// warp, Bs[k][tx] is one row; both clean for every k.
#define BLOCK_SIZE 16
__global__ void matmul(float *C, const float *A, const float *B, int wA, int wB) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int tx = threadIdx.x, ty = threadIdx.y;
  float Csub = 0;
  for (int a = 0; a < wA; a += BLOCK_SIZE) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[a + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[ty * wB + tx] = Csub;
}
// EXPLAIN-DAG: tiles-2d.cu:13:5: remark: store of 4 bytes from 'As' in 'matmul' (As[ty][tx]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN-DAG: tiles-2d.cu:14:5: remark: store of 4 bytes from 'Bs' in 'matmul' (Bs[ty][tx]): conflict-free, 1 wavefront (ideal 1)
// nvcc unrolls the k loop and merges As[ty][k..k+3] into one LDS.128 (as
// measured for cuda-samples' matrixMul, ground truth: 128-bit loads on that line).
// EXPLAIN-DAG: tiles-2d.cu:18:15: remark: load of 16 bytes from 'As' in 'matmul' (As[ty][k]): conflict-free, 2 wavefronts (ideal 2) in warp 0; holds for all values of a
// EXPLAIN-DAG: tiles-2d.cu:18:27: remark: load of 4 bytes from 'Bs' in 'matmul' (Bs[k][tx]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of a

// A 16x16 block reading a 16x16 tile by column: 8-way. Padding by one leaves
// 2-way (lanes 0 and 31 meet on bank 0); the tool verifies and offers +2.
__global__ void column16(float *o) {
  __shared__ float t[16][16];
  __shared__ float u[16][17];
  o[threadIdx.x] = t[threadIdx.x][threadIdx.y] + u[threadIdx.x][threadIdx.y];
}
// CHECK: tiles-2d.cu:[[# @LINE-2]]:20: warning: 8-way bank conflict reading 't': 8 lanes of warp 0 read 8 distinct words of bank 0 (8 wavefronts, ideal 1)
// CHECK: note: bank 0 is hit by lane 0 (word 0), lane 2 (word 32), lane 4 (word 64)
// CHECK: note: assuming block 16x16x1 from the launch at {{.*}}tiles-2d.cu:[[# @LINE+14]]:3
// CHECK: tiles-2d.cu:[[# @LINE-7]]:20: note: fix-it: pad 't' to 't[16][16 + 2]'
// CHECK: tiles-2d.cu:[[# @LINE-6]]:50: warning: 2-way bank conflict reading 'u': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: note: bank 0 is hit by lane 0 (word 0), lane 31 (word 256)
// CHECK: tiles-2d.cu:[[# @LINE-9]]:20: note: fix-it: pad 'u' to 'u[16][17 + 1]'

// --block-dim overrides the launch: with 32x8 threads the same column read
// is 16-way in t (rows of 16 floats: lanes 0, 2, ..., 30 share bank 0).
// RUN: %cbl --explain --block-dim=32,8 %s 2>&1 | %FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: tiles-2d.cu:35:20: warning: 16-way bank conflict reading 't'
// OVERRIDE: note: assuming block 32x8x1 from --block-dim

void launch(float *o, int n) {
  matmul<<<1, dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(o, o, o, n, n);
  column16<<<1, dim3(16, 16)>>>(o);
}
