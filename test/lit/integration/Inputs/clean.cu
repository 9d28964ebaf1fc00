// Conflict-free: row accesses only.
__global__ void copyRow(float *out, const float *in) {
  __shared__ float row[32];
  row[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = row[threadIdx.x];
}
