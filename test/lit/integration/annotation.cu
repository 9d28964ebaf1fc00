// `// cuda-bank-lint: block-dim(x, y)` pins a kernel's block shape; it ranks
// below --block-dim and the config's BlockDim, above launches.
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=ANN
// RUN: %cbl --explain %s --config="{BlockDim: {'annotated': [32, 4]}}" 2>&1 | %FileCheck %s --check-prefix=CFG
// RUN: %cbl --explain %s --block-dim=32,2 2>&1 | %FileCheck %s --check-prefix=CLI

// Lanes 0-31 read t[tid.x][tid.y]: with a 32-wide block, a 32-way conflict.
// cuda-bank-lint: block-dim(32, 8)
template <int N>
__global__ void __launch_bounds__(256) annotated(float *out) {
  __shared__ float t[32][33 * N - 1];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
template __global__ void annotated<1>(float *);

// The annotation beats the launch below.
// cuda-bank-lint: block-dim(16, 16)
__global__ void launchedToo(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
void launch(float *o) { launchedToo<<<1, dim3(32, 32)>>>(o); }

// ANN: annotation.cu:13:22: warning: 32-way bank conflict
// ANN: note: assuming block 32x8x1 from the annotation at {{.*}}annotation.cu:8
// ANN: annotation.cu:22:22: warning: 16-way bank conflict
// ANN: note: assuming block 16x16x1 from the annotation at {{.*}}annotation.cu:18
// CFG: note: assuming block 32x4x1 from the config's BlockDim 'annotated'
// CFG: note: assuming block 16x16x1 from the annotation
// CLI: note: assuming block 32x2x1 from --block-dim
// CLI: note: assuming block 32x2x1 from --block-dim
