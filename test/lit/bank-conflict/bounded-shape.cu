// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A launch that fixes only some extents (dim3(width, 2), width a run-time
// value) of a kernel with __launch_bounds__(64): no block of this kernel has
// more than 64 threads (a launch with more fails), so the widths and shapes
// tried stop there. Threads from 64 on, which would read every other word
// and branch apart at the barrier, do not exist.

__global__ void __launch_bounds__(64) bounded(float *o) {
  __shared__ float s[2][256];
  unsigned x = threadIdx.x;
  s[threadIdx.y][x < 64 ? x : 2 * x] = o[x];
  if (x < 64)
    __syncthreads();
  o[x] = s[threadIdx.y][x];
}
// JSON: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads (up to 64, __launch_bounds__'s maximum at {{.*}}bounded-shape.cu:9, worst warp reported): no launch of 'bounded' with a constant block size in this file or the others searched, no --block-dim (pass --block-dim=X,Y,Z to pin it); the launch at {{.*}}bounded-shape.cu:[[# @LINE+20]]:3 fixes only blockDim.y = 2, blockDim.z = 1 (its other extents are not constants)",
// JSON: "byte_offset": "{{.*}}threadIdx.y * 1024{{.*}}",
// JSON-NEXT: "call_chain": [],
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,

// The same kernel without the bound: at 128 threads and more, warps 2 and
// up write every other word (2-way), and the barrier splits warps apart.
__global__ void unbounded(float *o) {
  __shared__ float s[2][256];
  unsigned x = threadIdx.x;
  s[threadIdx.y][x < 64 ? x : 2 * x] = o[x];
// CHECK: bounded-shape.cu:[[# @LINE-1]]:3: remark: possible bank conflict writing 's': conflict-free when blockDim.x is 32 to 64; 2-way when blockDim.x is 128 to 256
  if (x < 64)
    __syncthreads();
// CHECK: bounded-shape.cu:[[# @LINE-1]]:5: warning: barrier '__syncthreads()' is divergent when the block has more than 128 threads, across warps
  o[x] = s[threadIdx.y][x];
}

void launch(float *o, int width) {
  bounded<<<1, dim3(width, 2)>>>(o);
  unbounded<<<1, dim3(width, 2)>>>(o);
}
