// CUDA in a .cpp file (CMake: LANGUAGE CUDA, so nvcc compiles it with -x cu):
// a 2-way conflict.
__global__ void strided(float *out) {
  __shared__ float buf[64];
  buf[threadIdx.x * 2] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x * 2];
}

void launchStrided(float *o) { strided<<<1, 32>>>(o); }
