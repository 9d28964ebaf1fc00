// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON --implicit-check-not='no __launch_bounds__'
// The bank-conflict check takes the block shape a generic launcher gives:
// the struct of launch parameters is an aggregate here, initialised at the
// call; the note names the call and the launch it goes through.

struct params {
  dim3 grid;
  dim3 block;
};

template <typename Kernel, typename... Args>
void launch(Kernel kernel, params p, Args... args) {
  kernel<<<p.grid, p.block>>>(args...);
}

__global__ void transpose(float *y) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
// CHECK: launcher-shapes.cu:[[@LINE-1]]:20: warning: 32-way bank conflict reading 'tile': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1) [cuda-shared-bank-conflict]
// CHECK: note: byte offset in 'tile' = threadIdx.x * 128 + threadIdx.y * 4: {{.*}} (block 32x8x1 from the call at {{.*}}launcher-shapes.cu:[[@LINE+6]]:3, which launches it through 'launch' (at {{.*}}launcher-shapes.cu:14:3))
}

// Without the launcher followed the shape is not known (every width tried).
void run(float *y) {
  params p = {dim3(4), dim3(32, 8)};
  launch(transpose, p, y);
}

// Only blockDim.x is fixed (rows is a run-time value): the shape is taken as
// not known, of at most the 256 threads of the kernel's __launch_bounds__.
__global__ void __launch_bounds__(256) transposeRows(float *y) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
// CHECK: launcher-shapes.cu:[[@LINE-1]]:20: warning: 32-way bank conflict reading 'tile'
// JSON: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads (up to 256, __launch_bounds__'s maximum at {{.*}}launcher-shapes.cu:34, worst warp reported): no launch of 'transposeRows' with a constant block size in this file or the others searched, no --block-dim (pass --block-dim=X,Y,Z to pin it); the call at {{.*}}launcher-shapes.cu:45:3, which launches it through 'launch' (at {{.*}}) fixes only blockDim.x = 32, blockDim.z = 1
}

void runRows(float *y, unsigned rows) {
  params p = {dim3(4), dim3(32, rows)};
  launch(transposeRows, p, y);
}
