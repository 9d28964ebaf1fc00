// A conflict whose lines hold non-ASCII text before the code: SARIF columns
// count UTF-16 code units ("é" is 2 bytes, 1 unit; "𝄞" 4 bytes, 2 units).
#define TILE 32
__global__ void transposeTile(float *out, const float *in) {
  /* é */ __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  /* 𝄞 */ out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *o, const float *i) { transposeTile<<<1, dim3(TILE, TILE)>>>(o, i); }
