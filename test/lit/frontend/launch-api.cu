// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// launch-toolkit.test runs the same checks with the CUDA toolkit's headers.
// Launches made with the runtime API are launches like k<<<g, b>>>: the
// kernel takes the block shape they give (C functions with the kernel cast
// to a pointer, the C++ template overloads, cudaLaunchCooperativeKernel,
// cudaLaunchKernelEx and cudaLaunchKernelExC with a cudaLaunchConfig_t), and
// a generic launcher that calls cudaLaunchKernel is followed to its callers.
#include <cuda_runtime.h>

// (a) cudaLaunchKernel, C form: a column read of a 32x32 tile.
__global__ void columnC(float *y) {
  __shared__ float tile[32][32];
  y[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
// CHECK: launch-api.cu:[[@LINE-1]]:39: warning: 32-way bank conflict reading 'tile'
// CHECK: (block 32x8x1 from the launch at {{.*}}launch-api.cu:[[@LINE+5]]:3)
}

void runC(float *y) {
  void *args[] = {&y};
  cudaLaunchKernel((void *)columnC, dim3(4), dim3(32, 8), args, 0, 0);
}

// (b) A split on threadIdx.y before a barrier: across warps at 32x8.
__global__ void rowsSplit(float *y) {
  if (threadIdx.y == 0) {
    y[threadIdx.x] = 0;
    __syncthreads();
// CHECK: launch-api.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warps 1-7 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x8x1 from the launch at {{.*}}launch-api.cu:[[@LINE+8]]:3{{$}}
  }
}

// The C++ template overload (the kernel itself, no cast), defaults for the
// shared memory size and stream.
void runSplit(float *y) {
  void *args[] = {&y};
  cudaLaunchKernel(rowsSplit, dim3(1), dim3(32, 8), args);
}

// (c) cudaLaunchCooperativeKernel with reinterpret_cast, the block a local.
__global__ void stride2(float *y) {
  __shared__ float s[128];
  y[threadIdx.x] = s[(threadIdx.x * 2) % 128];
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 's'
// CHECK: (block 64x1x1 from the launch at {{.*}}launch-api.cu:[[@LINE+6]]:3)
}

void runCooperative(float *y, cudaStream_t stream) {
  void *args[] = {&y};
  dim3 threads(64);
  cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(stride2), dim3(2), threads, args, 0, stream);
}

// (d) cudaLaunchKernelEx: the configuration's fields set by assignment.
__global__ void columnEx(float *y, int n) {
  __shared__ float tile[16][16];
  y[threadIdx.x] = tile[threadIdx.x][threadIdx.y] * n;
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 8-way bank conflict reading 'tile'
// CHECK: (block 16x16x1 from the launch at {{.*}}launch-api.cu:[[@LINE+9]]:3)
}

void runEx(float *y, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8);
  cfg.blockDim = dim3(16, 16);
  cfg.stream = stream;
  cfg.numAttrs = 0;
  cudaLaunchKernelEx(&cfg, columnEx, y, 3);
}

// (e) cudaLaunchKernelExC: the configuration's aggregate initialiser.
__global__ void stride4(float *y) {
  __shared__ float s[512];
  y[threadIdx.x] = s[(threadIdx.x * 4) % 512];
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 4-way bank conflict reading 's'
// CHECK: (block 128x1x1 from the launch at {{.*}}launch-api.cu:[[@LINE+6]]:3)
}

void runExC(float *y) {
  void *args[] = {&y};
  cudaLaunchConfig_t cfg = {dim3(2), dim3(128), 0, 0, nullptr, 0};
  cudaLaunchKernelExC(&cfg, (const void *)stride4, args);
}

// (f) A generic launcher that calls cudaLaunchKernel with what it is given.
template <typename Kernel>
void launchVia(Kernel kernel, dim3 block, void **args) {
  cudaLaunchKernel((const void *)kernel, dim3(1), block, args, 0, 0);
}

__global__ void rowsGeneric(float *y) {
  y[threadIdx.x] = 1;
  if (threadIdx.y % 2)
    __syncthreads();
// CHECK: launch-api.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warps 1, 3 reach it, warps 0, 2 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x4x1 from the call at {{.*}}launch-api.cu:[[@LINE+5]]:3, which launches it through 'launchVia' (at {{.*}}launch-api.cu:[[@LINE-8]]:3){{$}}
}

void runGeneric(float *y) {
  void *args[] = {&y};
  launchVia(rowsGeneric, dim3(32, 4), args);
}

// (g) A block the program computes at run time: not known, and said so.
__global__ void unknownBlock(float *y) {
  __shared__ float s[64];
  y[threadIdx.x] = s[threadIdx.x * 2];
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'unknownBlock' with a constant block size in this file or the others searched
}

void runUnknown(float *y, int n) {
  void *args[] = {&y};
  cudaLaunchKernel((void *)unknownBlock, dim3(1), dim3(n), args, 0, 0);
}

// (h) cudaLaunchKernelEx whose blockDim is written in a branch: not known.
__global__ void branchBlock(float *y) {
  __shared__ float s[64];
  y[threadIdx.x] = s[threadIdx.x * 2];
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'branchBlock' with a constant block size
}

void runBranch(float *y, bool wide) {
  cudaLaunchConfig_t cfg = {};
  cfg.blockDim = dim3(32);
  if (wide)
    cfg.blockDim = dim3(64);
  cudaLaunchKernelEx(&cfg, branchBlock, y);
}

// (i) Inside a function template: the kernel chosen by template arguments,
// held in a local pointer, its block built from constants of the template.
template <unsigned Cols>
__global__ void tiled(float *y) {
  __shared__ float t[Cols][Cols];
  y[threadIdx.x] = t[threadIdx.x % Cols][threadIdx.y];
// CHECK: launch-api.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 't'
// CHECK: (block 8x4x1 from the launch at {{.*}}launch-api.cu:[[@LINE+9]]:3)
}

template <unsigned Cols>
void runTiled(float *y) {
  constexpr unsigned rows = 32 / Cols;
  auto kernel = tiled<Cols>;
  dim3 nthrs = dim3(Cols, rows);
  void *args[] = {&y};
  cudaLaunchKernel((void *)kernel, dim3(1), nthrs, args, 0, 0);
}

void hostTiled(float *y) { runTiled<8>(y); }

// Each kernel's accesses carry the shape and where it comes from.
// JSON: "block_dim_note": "from the launch at {{.*}}launch-api.cu:21:3",
// JSON-NEXT: "block_dim_source": "launch",
// JSON: "function": "columnC",
// JSON: "block_dim_note": "from the launch at {{.*}}launch-api.cu:69:3",
// JSON: "function": "columnEx",
// JSON: "block_dim_note": "from the launch at {{.*}}launch-api.cu:83:3",
// JSON: "function": "stride4",
// JSON: "block_dim_source": "assumed",
// JSON: "function": "unknownBlock",
