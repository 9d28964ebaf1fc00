#define TILE 32
__global__ void k(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  /* ü€😀 */ out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void launch(float *o, const float *i) { k<<<1, dim3(TILE, TILE)>>>(o, i); }
