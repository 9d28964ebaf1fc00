// RUN: %cbl --explain --block-dim=32,32 %s 2>&1 | %FileCheck %s
// An XOR swizzle of a tile's 128-byte row segments by the row is suggested
// (as a note, not a fix-it: every access's index changes) only when the tool
// has checked that it leaves every access to the array conflict-free.

__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * 32 + tx];
  __syncthreads();
  out[ty * 32 + tx] = tile[tx][ty];
  // CHECK: swizzle-suggestion.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict reading 'tile'
  // CHECK: note: fix-it: pad 'tile' to 'tile[32][32 + 1]'
  // CHECK: note: an XOR swizzle of the 4-byte chunks of 'tile' by the row, element [r][c] stored at [r][c ^ (r % 32)] in every access, makes every access to 'tile' conflict-free (verified for every instantiation and the block shapes considered)
}

// A third access on a diagonal: no padding helps (odd pitches make the
// diagonal 2-way or worse, even ones the column) and the swizzle would make
// the diagonal conflict: neither is suggested.
__global__ void diagonal(float *out) {
  __shared__ float d[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  d[ty][tx] = 0;
  __syncthreads();
  out[ty * 32 + tx] = d[tx][ty] + d[tx][(tx + ty) % 32];
  // CHECK: swizzle-suggestion.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict reading 'd'
  // CHECK: note: no padding of the innermost dimension of 'd' up to 32 elements removes this conflict without making another access worse; consider an XOR swizzle of the column index
  // CHECK-NOT: note: an XOR swizzle of the 4-byte chunks of 'd'
  // CHECK: analysed
}
