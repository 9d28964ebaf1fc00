// A 32-way conflict with a verified padding fix, and a conflict that depends
// on a parameter (a remark).
#define TILE 32
__global__ void transposeTile(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void strided(float *out, int stride) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * stride];
}

void launch(float *o, const float *i, int n) {
  transposeTile<<<1, dim3(TILE, TILE)>>>(o, i);
  strided<<<1, 32>>>(o, n);
}
