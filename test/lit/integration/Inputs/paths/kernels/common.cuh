// Included as "../common.cuh" from instances/: Clang spells it
// kernels/instances/../common.cuh.
template <int N> __global__ void column(float *out) {
  __shared__ float tile[32][N];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
