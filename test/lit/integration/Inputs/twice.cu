// Two 32-way conflicts (two column reads of one 32x32 tile): both findings
// offer the same padding fix-it, which is exported and applied once.
#define TILE 32
__global__ void transposeTwice(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  out[threadIdx.x + TILE] = tile[threadIdx.x][TILE - 1 - threadIdx.y];
}

void launch(float *o, const float *i) { transposeTwice<<<1, dim3(TILE, TILE)>>>(o, i); }
