// Example: a strided shared-memory reduction step. 'sdata[2 * s * tid]'
// conflicts; the sequential-addressing form does not.
#define BLOCK 256

__global__ void strided(int *out) {
  __shared__ int sdata[BLOCK * 2];
  unsigned tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  int v = sdata[2 * tid];      // stride 2 words: 2-way
  out[tid] = v + sdata[tid];   // conflict-free
}

void launch(int *out) { strided<<<1, BLOCK>>>(out); }
