// Vendored code with a conflict, skipped with --exclude=third_party.
__global__ void vendor(float *out) {
  __shared__ float v[32][32];
  v[threadIdx.x][0] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.x][0];
}

void launchVendor(float *o) { vendor<<<1, 32>>>(o); }
