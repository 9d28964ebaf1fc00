// One finding under each of the barrier check's three names.
__global__ void halfWarp(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void firstWarp(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void lastWarpLeaves(float *out) {
  if (threadIdx.x >= 32)
    return;
  __syncthreads();
  out[threadIdx.x] = 0;
}

void launch(float *o) {
  halfWarp<<<1, 64>>>(o);
  firstWarp<<<1, 64>>>(o);
  lastWarpLeaves<<<1, 64>>>(o);
}
