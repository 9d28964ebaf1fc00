// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=DEFAULT --implicit-check-not=remark:
// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Boundary blocks (partial tiles): a threshold guard on block-uniform values
// (the last tile's extent) removes lanes in some blocks only. Removing lanes
// never adds a bank conflict, but 8- and 16-byte accesses are served 16 or
// 8 lanes at a time: lanes left in several such groups keep their
// wavefronts while Nsight Compute's source page compares them with the
// bytes packed (measured: test/data/h200-partial-warps.csv and
// h200-edge-tiles.csv). Such an access is exact in full tiles only: bound,
// with a remark. 4-byte accesses and prefixes of lanes cannot show it: they
// stay exact.

__global__ void tile2d(const double *in, double *out, int ny, int nz) {
  __shared__ double d[16][16];
  __shared__ float f[16][16];
  int lastY = 15, lastZ = 15;
  if (blockIdx.y == gridDim.y - 1) lastY = ny - 14 * blockIdx.y;
  if (blockIdx.z == gridDim.z - 1) lastZ = nz - 14 * blockIdx.z;
  if (threadIdx.y > lastY || threadIdx.x > lastZ) return;
  d[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  // CHECK: boundary-warps.cu:[[@LINE-1]]:3: remark: excess wavefronts in boundary blocks writing 'd', no bank conflict: in a partial tile, lanes 0-7, 16-23 of warp 0 take 2 wavefronts where Nsight Compute's source page counts an ideal of 1 (whole warps: no excess) [cuda-shared-bank-conflict]
  // CHECK: note: 8-byte accesses are served 16 lanes at a time, so lanes left in 2 such groups take 2 wavefronts; the page's ideal is their bytes packed, ceil(16 lanes x 8 bytes / 128) = 1; the hardware counts no bank conflict
  f[threadIdx.y][threadIdx.x] = in[threadIdx.y];
  __syncthreads();
  // A conflict in full tiles: the warning, and no remark beside it.
  out[threadIdx.x] = d[threadIdx.x][threadIdx.y];
  // CHECK: boundary-warps.cu:[[@LINE-1]]:22: warning: 16-way bank conflict reading 'd'
}

__global__ void rows1d(double *out, int n) {
  __shared__ double s[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[threadIdx.x] = out[i];
  __syncthreads();
  out[i] = s[255 - threadIdx.x];
}

__global__ void quads(float4 *out, int n) {
  __shared__ float4 q[8][8];
  int last = 7;
  if (blockIdx.x == gridDim.x - 1) last = n - 8 * blockIdx.x;
  if (threadIdx.x > last) return;
  q[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  // CHECK: boundary-warps.cu:[[@LINE-1]]:3: remark: excess wavefronts in boundary blocks writing 'q', no bank conflict: in a partial tile, lanes {{.*}} of warp 0 take 4 wavefronts where Nsight Compute's source page counts an ideal of 1
  // CHECK: note: 16-byte accesses are served 8 lanes at a time, so lanes left in 4 such groups take 4 wavefronts
}

void launch(const double *a, double *b, float4 *c, int n) {
  tile2d<<<dim3(1, 4, 4), dim3(16, 16)>>>(a, b, n, n);
  rows1d<<<(n + 255) / 256, 256>>>(b, n);
  quads<<<(n + 7) / 8, dim3(8, 8)>>>(c, n);
}
// DEFAULT: 1 file analysed, 6 shared accesses (4 exact, 2 bound), 1 warning, 0 errors (2 remarks not shown: --remarks)

// JSON:      "boundary_warp": {
// JSON-NEXT:   "active_mask": "0x00ff00ff",
// JSON-NEXT:   "source_page_ideal": 1,
// JSON-NEXT:   "warp": 0,
// JSON-NEXT:   "wavefronts": 2
// JSON:      "expression": "d[threadIdx.y][threadIdx.x]",
// JSON:      "status": "bound",
// JSON-NEXT: "wavefronts": 2,
// JSON:      "expression": "f[threadIdx.y][threadIdx.x]",
// JSON:      "status": "exact",
// JSON:      "expression": "d[threadIdx.x][threadIdx.y]",
// JSON:      "status": "exact",
// JSON-NEXT: "wavefronts": 32,
// JSON:      "expression": "s[threadIdx.x]",
// JSON-NOT:  "boundary_warp"
// JSON:      "status": "exact",
// JSON:      "boundary_warp": {
// JSON-NEXT:   "active_mask": "0x{{[0-9a-f]+}}",
// JSON-NEXT:   "source_page_ideal": 1,
// JSON-NEXT:   "warp": 0,
// JSON-NEXT:   "wavefronts": 4
// JSON:      "expression": "q[threadIdx.y][threadIdx.x]",
// JSON:      "status": "bound",
