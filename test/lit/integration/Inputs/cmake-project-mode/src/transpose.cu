// A 32-way conflict: a column read of a 32x32 tile.
__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launchTranspose(float *o, const float *i) { transpose<<<1, dim3(32, 32)>>>(o, i); }
