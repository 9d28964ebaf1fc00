// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// Transpose through a 32x32 tile: row writes are clean, column reads 32-way;
// the [32][33] tile is clean. Block shape from the launch below.

#define TILE 32
__global__ void transposeNaiveTile(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK: transpose.cu:[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1) [cuda-shared-bank-conflict]
  // CHECK: note: byte offset in 'tile' = threadIdx.x * 128 + threadIdx.y * 4; consecutive lanes are 32 words apart and gcd(32, 32 banks) = 32
  // CHECK: note: assuming block 32x32x1 from the launch at {{.*}}transpose.cu:[[# @LINE+13]]:3
  // CHECK: note: padding the innermost dimension of 'tile' by 1 element ('tile[32][TILE + 1]')
}

__global__ void transposePadded(float *out, const float *in) {
  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *o, const float *i) {
  dim3 block(TILE, TILE);
  transposeNaiveTile<<<1, block>>>(o, i);
  transposePadded<<<1, block>>>(o, i);
}
