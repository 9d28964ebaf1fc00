// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN --implicit-check-not=warning:
// Transpose through a 32x32 tile: row writes are clean, column reads 32-way;
// the [32][33] tile is clean. Block shape from the launch below.

#define TILE 32
__global__ void transposeNaiveTile(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK: transpose.cu:[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1) [cuda-shared-bank-conflict]
  // CHECK-NEXT: {{^}} {{.*}}tile[threadIdx.x][threadIdx.y];
  // CHECK-NEXT: {{^}} {{.*}}^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // CHECK-NEXT: transpose.cu:[[@LINE-4]]:22: note: byte offset in 'tile' = threadIdx.x * 128 + threadIdx.y * 4: lanes 0-31 hit bank 0 at words 0, 32, 64, ..., 992 (block 32x32x1 from the launch at {{.*}}transpose.cu:[[# @LINE+20]]:3)
  // CHECK-NEXT: transpose.cu:[[# @LINE-8]]:20: note: fix-it: pad 'tile' to 'tile[TILE][TILE + 1]' (verified for the block shapes considered: this access conflict-free (1 wavefront instead of 32), no access to 'tile' worse)
  // CHECK-NEXT: 1 file analysed
  // EXPLAIN: transpose.cu:[[@LINE-7]]:22: warning: 32-way bank conflict reading 'tile'
  // EXPLAIN: note: byte offset in 'tile' = threadIdx.x * 128 + threadIdx.y * 4: lanes 0-31
  // EXPLAIN-NEXT: note: consecutive lanes are 32 words apart and gcd(32, 32 banks) = 32, so the lanes of a warp use only 1 distinct bank
  // EXPLAIN-NEXT: note: bank 0 is hit by lane 0 (word 0), lane 1 (word 32), {{.*}}, lane 31 (word 992)
  // EXPLAIN-NEXT: note: assuming block 32x32x1 from the launch at {{.*}}transpose.cu:[[# @LINE+13]]:3
  // EXPLAIN: note: fix-it: pad 'tile' to 'tile[TILE][TILE + 1]'
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
