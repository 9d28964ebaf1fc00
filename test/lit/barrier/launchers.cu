// RUN: %cbl --explain --checks='-*,cuda-barrier-*' %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Launches made by generic launchers: the kernel is a parameter of the host
// function that launches it (a template parameter, a function pointer), and
// so is the configuration. Each call of the launcher is a launch of the
// kernel it passes, with the shape its arguments give; the barrier split on
// threadIdx.y is then across warps at 32 x nwarps, never an invented 1-D
// block.

typedef struct CUstream_st *stream_t;

// (a) A variadic launcher and a struct of launch parameters built by a
// constructor that only initialises its members.
struct launch_params {
  dim3 grid;
  dim3 block;
  unsigned shmem;
  stream_t stream;
  launch_params(const dim3 &g, const dim3 &b, unsigned s, stream_t st) : grid(g), block(b), shmem(s), stream(st) {}
};

template <typename Kernel, typename... Args>
void kernel_launch(Kernel kernel, const launch_params &p, Args &&...args) {
  kernel<<<p.grid, p.block, p.shmem, p.stream>>>(static_cast<Args &&>(args)...);
}

template <int N>
__global__ void __launch_bounds__(128) rows_variadic(float *y) {
  __shared__ float s[4][32];
  if (threadIdx.y == 0) {
    s[0][threadIdx.x] = y[threadIdx.x] * N;
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warps 1-3 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x4x1 from the call at {{.*}}launchers.cu:48:5, which launches it through 'kernel_launch' (at {{.*}}launchers.cu:23:3){{$}}
  } else {
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warps 1-3 reach it, warp 0 does not
  }
  y[threadIdx.y * 32 + threadIdx.x] = s[0][threadIdx.x];
}

void run_variadic(float *y, int n, stream_t stream) {
  const int rows_per_block = 4;
  dim3 grid_dims((n + rows_per_block - 1) / rows_per_block, 1, 1);
  dim3 block_dims(32, rows_per_block, 1);
  const launch_params params = launch_params(grid_dims, block_dims, 0, stream);
  switch (n) {
  case 1:
    kernel_launch(rows_variadic<1>, params, y);
    break;
  default:
    kernel_launch(rows_variadic<2>, params, y);
    break;
  }
}

// (b) A launcher taking a kernel pointer and the number of warps: the block
// is dim3(32, nwarps), nwarps what each caller passes.
typedef void (*kernel_t)(float *);

void launch_rows(kernel_t kernel, const int nwarps, float *y, const int warp_size = 32) {
  const dim3 block_dim(warp_size, nwarps, 1);
  kernel<<<1, block_dim>>>(y);
}

__global__ void rows_pointer(float *y) {
  __shared__ float s[32];
  if (threadIdx.y == 0) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warps 1-3 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x4x1 from the call at {{.*}}launchers.cu:82:3, which launches it through 'launch_rows' (at {{.*}}launchers.cu:62:3){{$}}
  } else {
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warps 1-3 reach it
  }
  y[threadIdx.x] = s[threadIdx.x];
}

void run_pointer(float *y) {
  const int nwarps = 4;
  kernel_t kernel = rows_pointer;
  launch_rows(kernel, nwarps, y);
}

// (c) A kernel pointer chosen at run time among two kernels: both are
// launched with the launcher's shape (32x2 here).
__global__ void first_choice(float *y) {
  __shared__ float s[32];
  if (threadIdx.y == 1) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 1 reaches it, warp 0 does not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x2x1 from the call at {{.*}}launchers.cu:125:3, which launches it through 'launch_rows'
  }
  y[threadIdx.x] = s[threadIdx.x];
}

__global__ void second_choice(float *y) {
  __shared__ float s[32];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// CHECK: note: assuming block 32x2x1 from the call at {{.*}}launchers.cu:125:3, which launches it through 'launch_rows'
  }
  y[threadIdx.x] = s[threadIdx.x % 16];
}

// Every thread agrees at 32x2: no warning.
__global__ void agreeing_choice(float *y) {
  __shared__ float s[64];
  if (threadIdx.y < 2) {
    s[threadIdx.y * 32 + threadIdx.x] = y[threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s[63 - threadIdx.x];
}

void run_choice(float *y, int which) {
  kernel_t kernel;
  if (which == 0)
    kernel = first_choice;
  else
    kernel = which == 1 ? second_choice : agreeing_choice;
  launch_rows(kernel, 2, y);
}

// (d) One launcher called with two shapes: the barrier check tries each
// (one row of warps agrees, eight rows do not).
__global__ void two_shapes(float *y) {
  __shared__ float s[32];
  if (threadIdx.y == 0) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warps 1-7 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 32x8x1 from the call at {{.*}}launchers.cu:143:3, which launches it through 'launch_rows'
  }
  y[threadIdx.x] = s[threadIdx.x];
}

void run_two_shapes(float *y) {
  launch_rows(two_shapes, 1, y);
  launch_rows(two_shapes, 8, y);
}

// (e) The number of warps is a run-time value: only blockDim.x = 32 and
// blockDim.z = 1 are known, and the split is stated with its condition.
__global__ void runtime_rows(float *y) {
  __shared__ float s[32];
  if (threadIdx.y == 0) {
    s[threadIdx.x] = y[threadIdx.x];
    __syncthreads();
// CHECK: launchers.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than one row (blockDim.y or blockDim.z > 1), across warps (the block shape is known only in part: blockDim.x = 32, blockDim.z = 1; at 32x2x1: warp 0 reaches it, warp 1 does not) [cuda-barrier-divergence-across-warps]
// CHECK: note: block shape known only in part: the call at {{.*}}launchers.cu:160:3, which launches it through 'launch_rows' (at {{.*}}) fixes only blockDim.x = 32, blockDim.z = 1
  }
  y[threadIdx.x] = s[threadIdx.x];
}

void run_runtime(float *y, int nthreads) {
  launch_rows(runtime_rows, nthreads / 32, y);
}

// rows_pointer launched again at the same shape: still one shape, no note of
// other shapes (checked at its first launch above).
void run_pointer_again(float *y) {
  launch_rows(rows_pointer, 4, y);
}
