// A kernel of its own: analysed on its own, no hint.
__global__ void plain(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[63 - threadIdx.x];
}
