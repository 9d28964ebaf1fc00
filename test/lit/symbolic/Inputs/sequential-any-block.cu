__global__ void sequentialAnyBlock(int *g) {
  extern __shared__ int cache[];
  unsigned tid = threadIdx.x;
  cache[tid] = g[tid];
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
}
