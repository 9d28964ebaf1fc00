// Not a translation unit: TILE and real come from main.cu.
__global__ void transposeTile(real *o) {
  __shared__ real tile[TILE][TILE];
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < TILE; j += 8)
    o[threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
}
