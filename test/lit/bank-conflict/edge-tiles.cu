// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A 16x16 block of doubles whose last tiles return early (the shape of
// HeCBench stencil3d): in the last tile along the fast axis a warp keeps a
// few lanes of each of its two rows. The hardware serves 8-byte accesses per
// half-warp, one wavefront each however few lanes are active, and counts no
// bank conflict (measured: test/data/h200-edge-tiles.csv, docs/bank-model.md).
// Nsight Compute's source page shows "excessive" wavefronts on these lines,
// because its ideal counts bytes (12 lanes x 8 bytes: 1); the tool reports
// the hardware: conflict-free, 2 wavefronts per warp, no warning.
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

int main(int argc, char **) { edge<<<dim3(1, 2, 2), dim3(16, 16)>>>(0, 0, argc, argc); }

// CHECK: 0 warnings
// JSON: "expression": "sm[0][tjj][tkk]",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 2,
