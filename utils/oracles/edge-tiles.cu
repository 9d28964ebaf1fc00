// A 16x16 block of doubles whose last tiles return early (the shape of
// HeCBench stencil3d; our own kernel):
// hardware counters and source-page counts, last tile full or partial.
#include <cstdio>
#include <cstdlib>
__global__ void edge(const double *__restrict__ in, double *__restrict__ out, int ny, int nz) {
  __shared__ double sm[2][16][16];
  const int tjj = threadIdx.y, tkk = threadIdx.x;
  int nLast_y = 15, nLast_z = 15;
  if (blockIdx.y == gridDim.y - 1) nLast_y = ny - 2 - 14 * blockIdx.y + 1;
  if (blockIdx.z == gridDim.z - 1) nLast_z = nz - 2 - 14 * blockIdx.z + 1;
  if (tjj > nLast_y || tkk > nLast_z) return;
  const int gy = 14 * blockIdx.y + tjj, gz = 14 * blockIdx.z + tkk;
  sm[0][tjj][tkk] = in[gy * nz + gz];
  __syncthreads();
  double v = 0;
  if (tkk > 0 && tkk < nLast_z && tjj > 0 && tjj < nLast_y)
    v = sm[0][tjj][tkk - 1] + sm[0][tjj][tkk + 1];
  sm[1][tjj][tkk] = v;
  __syncthreads();
  out[gy * nz + gz] = sm[1][tjj][tkk];
}
int main(int argc, char **argv) {
  int ny = atoi(argv[1]), nz = atoi(argv[2]);
  double *a, *b; cudaMalloc(&a, sizeof(double) * ny * nz); cudaMalloc(&b, sizeof(double) * ny * nz);
  cudaMemset(a, 0, sizeof(double) * ny * nz);
  dim3 grid(1, (ny - 2 + 13) / 14, (nz - 2 + 13) / 14);
  edge<<<grid, dim3(16, 16)>>>(a, b, ny, nz);
  cudaDeviceSynchronize();
  printf("ny %d nz %d grid %d %d: %s\n", ny, nz, grid.y, grid.z, cudaGetErrorString(cudaGetLastError()));
}
