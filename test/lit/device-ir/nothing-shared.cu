// RUN: %cbl %s --block-dim=32 --debug-dump-device-ir=%t.ll 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=IR < %t.ll
// RUN: %cbl %s --block-dim=32 --format=json > %t.whole.json
// RUN: %cbl %s --block-dim=32 --format=json --debug-device-part-instructions=1 --debug-device-max-parts=16 -j 2 > %t.parts.json
// RUN: diff %t.whole.json %t.parts.json
//
// A kernel whose code, with every function it may call, names no shared
// variable and holds no barrier can give neither an access nor a barrier:
// it is not optimised or analysed (ggml's element-wise kernels). What it
// writes stays unknown to the others, and a barrier reached through a
// helper, or written as PTX, keeps its kernel.

static __device__ int column; // written by a kernel without shared memory

__global__ void setColumn(int c) { column = c; }
// IR-NOT: define {{.*}}setColumn

__device__ float scaleOf(const float *p) { return p[threadIdx.x] * 2.0f; }

__global__ void elementwise(float *out, const float *in) { out[threadIdx.x] = scaleOf(in); }
// IR-NOT: define {{.*}}elementwise

// A template instance (in a comdat until its body goes).
template <int N> __global__ void fill(float *out) { out[threadIdx.x] = N; }
void launchFill(float *out) { fill<3><<<1, 32>>>(out); }
// IR-NOT: define {{.*}}fill

__global__ void readColumn(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][column];
}
// In the module, no code writes 'column' any more: still not 0 here.
// CHECK: nothing-shared.cu:[[# @LINE-3]]:22: warning: 32-way bank conflict reading 'tile'
// CHECK: nothing-shared.cu:[[# @LINE-4]]:22: note: byte offset in 'tile' = threadIdx.x * 128 + column * 4:
// IR: define {{.*}}readColumn

// A barrier whose id is a parameter of a helper until it is inlined.
static __device__ void barrierOf(unsigned id) { __nvvm_barrier_sync(id); }

__global__ void halfBarrier(float *out) {
  if (threadIdx.x < 16)
    barrierOf(0);
// CHECK: nothing-shared.cu:[[# @LINE-1]]:5: warning: call to 'barrierOf', which executes a block barrier, is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
  out[threadIdx.x] = 0;
}
// IR: define {{.*}}halfBarrier

__global__ void ptxBarrier(float *out) {
  if (threadIdx.x < 8)
    asm volatile("bar.sync 0;");
// CHECK: nothing-shared.cu:[[# @LINE-1]]:5: warning: barrier {{.*}} is divergent within a warp: lanes 0-7 of warp 0 reach it, lanes 8-31 do not [cuda-barrier-divergence]
  out[threadIdx.x] = 0;
}
// IR: define {{.*}}ptxBarrier

// Shared memory named two calls down.
__device__ float *tileOf() {
  __shared__ float t[64];
  return t;
}
__device__ void storeTwice(float v) { tileOf()[2 * threadIdx.x] = v; }
// CHECK: nothing-shared.cu:[[# @LINE-1]]:39: warning: 2-way bank conflict writing 't'

__global__ void deepShared(const float *in) { storeTwice(in[threadIdx.x]); }
// IR: define {{.*}}deepShared
