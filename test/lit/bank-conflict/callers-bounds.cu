// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=store1
// RUN: %cbl %s --verbose 2>&1 | %FileCheck %s --check-prefix=VERBOSE
// RUN: %cbl --format=json %s > %t.json
// RUN: %FileCheck %s --check-prefix=JSON --implicit-check-not='"function": "store1<1>"' < %t.json
// RUN: %FileCheck %s --check-prefix=NOTES < %t.json
// RUN: %cbl %s -- -fgpu-rdc 2>&1 | %FileCheck %s --check-prefix=RDC --implicit-check-not=warning:
// A device function analysed on its own (its kernels' calls of it are left
// out by Clang, under a constant condition that returns first) has the block
// of the kernels that call it: at most their largest __launch_bounds__.

__shared__ float tile[32][32];

// A template instance whose only call Clang leaves out is not compiled at
// all (nvcc emits no code for it): not analysed, nor what only it calls;
// said with --verbose and in the JSON notes. Analysed with up to 1,024
// threads, the column write was a 32-way conflict.
template <int Mode> __device__ void inner1(float v) { tile[threadIdx.x % 32][3] = v; }
template <int Mode> __device__ void store1(float v) {
  if (threadIdx.x >= 64)
    tile[threadIdx.x % 32][0] = v;
  else
    inner1<Mode>(v);
}
// VERBOSE: callers-bounds.cu:[[# @LINE-6]]:37: note: device function 'store1<1>' not analysed: no kernel of this file runs it (Clang leaves out every call, in code that cannot run such as what follows a return under a constant condition, and nvcc compiles no code for it)
// VERBOSE: callers-bounds.cu:[[# @LINE-8]]:37: note: device function 'inner1<1>' not analysed: no kernel
// NOTES: "message": "device function 'store1<1>' not analysed: no kernel of this file runs it

template <int Mode> __global__ void __launch_bounds__(64) small(float *out) {
  if (Mode == 1)
    return;
  store1<Mode>(out[threadIdx.x]);
}
template __global__ void small<1>(float *);

// An explicit instantiation is the user's: analysed though nothing calls it.
template <int Mode> __device__ void storeMode(float v) { tile[threadIdx.x % 32][4] = v; }
template __device__ void storeMode<2>(float);
// CHECK: callers-bounds.cu:[[# @LINE-2]]:58: warning: 32-way bank conflict writing 'tile'
// RDC: callers-bounds.cu:[[# @LINE-3]]:58: warning: 32-way bank conflict writing 'tile'

// The largest bound of its callers: one kernel of 64 threads and one of 128
// reach store2 (and storeTwice in it); threads 64 to 127 exist.
__device__ void storeTwice(float v) {
  if (threadIdx.x >= 64)
    tile[threadIdx.x % 32][1] = v;
// CHECK: callers-bounds.cu:[[# @LINE-1]]:5: warning: 32-way bank conflict writing 'tile': 32 lanes of warp 2
// CHECK: note: {{.*}}(in 'store2' through the call at {{.*}}; block shape not known: a 1-D block of 32 to 128 threads assumed (__launch_bounds__'s maximum); --block-dim pins it)
// RDC: callers-bounds.cu:[[# @LINE-3]]:5: warning: 32-way bank conflict writing 'tile': 32 lanes of warp 2
// RDC: note: {{.*}}block shape not known: a 1-D block of 32 to 1024 threads assumed; --block-dim pins it)
}
__device__ void store2(float v) { storeTwice(v); }
__global__ void __launch_bounds__(64) narrow(float *out) {
  if (sizeof(float) == 4)
    return;
  store2(out[threadIdx.x]);
}
__global__ void __launch_bounds__(128) wide(float *out) {
  if (sizeof(float) == 4)
    return;
  store2(out[threadIdx.x]);
}
// JSON: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads (up to 128, __launch_bounds__'s maximum at {{.*}}callers-bounds.cu:[[# @LINE-5]], worst warp reported): 'store2' is a device function

// An external function that another unit's kernel may call (relocatable
// device code, -fgpu-rdc): no bound from this unit's kernels.
__device__ void storeAny(float v) {
  if (threadIdx.x >= 64)
    tile[threadIdx.x % 32][2] = v;
// RDC: callers-bounds.cu:[[# @LINE-1]]:5: warning: 32-way bank conflict writing 'tile': 32 lanes of warp 2
}
__global__ void __launch_bounds__(64) narrowAny(float *out) {
  if (sizeof(float) == 4)
    return;
  storeAny(out[threadIdx.x]);
}
