// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// Halo loads of a tiled stencil: `j >= 1` and `j <= n - 2` with j built from
// blockIdx.y and threadIdx.y. The compiler writes `j >= 1` as `j != 0` (j is
// never negative); it is still a boundary between blocks, so the warps of an
// interior block run the halo row with all of its lanes: exact.
__global__ void halo(float *f, int n) {
  __shared__ float t[18][18];
  int i = blockIdx.x * 16 + threadIdx.x;
  int j = blockIdx.y * 16 + threadIdx.y;
  t[threadIdx.y + 1][threadIdx.x + 1] = f[j * n + i];
  if (threadIdx.y == 0 && j >= 1)
    t[threadIdx.y][threadIdx.x + 1] = f[(j - 1) * n + i];
  if (threadIdx.y == 15 && j <= n - 2)
    t[threadIdx.y + 2][threadIdx.x + 1] = f[(j + 1) * n + i];
  __syncthreads();
  f[j * n + i] = t[threadIdx.y][threadIdx.x] + t[threadIdx.y + 2][threadIdx.x + 2];
}
int main() { halo<<<dim3(4, 4), dim3(16, 16)>>>(nullptr, 64); }

// CHECK: halo:10:3 st 4 exact 2-way 2/1
// CHECK-NEXT: halo:12:5 st 4 exact 1-way 1/1
// CHECK-NEXT: halo:14:5 st 4 exact 1-way 1/1
