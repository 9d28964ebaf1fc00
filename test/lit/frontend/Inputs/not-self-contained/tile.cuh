// A header meant to be included after TILE and real are defined.
__global__ void rowTile(real *o) {
  __shared__ real row[2 * TILE];
  row[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = row[threadIdx.x * 2];
}
