// Partly analysed: Clang rejects one kernel (not analysed) and accepts the
// other, which has a 2-way conflict.
__global__ void rejected(float *out) { out[threadIdx.x] = nope; }
__global__ void accepted(float *out) {
  __shared__ float s[64];
  out[threadIdx.x] = s[2 * threadIdx.x];
}
void launch(float *o) { accepted<<<1, 32>>>(o); }
