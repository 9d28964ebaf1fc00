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
// JSON: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads (up to 64, __launch_bounds__'s maximum at {{.*}}bounded-shape.cu:9, worst warp reported): no launch of 'bounded' with a constant block size in this file or the others searched, no --block-dim (pass --block-dim=X,Y,Z to pin it); the launch at {{.*}}bounded-shape.cu:{{[0-9]+}}:3 fixes only blockDim.y = 2, blockDim.z = 1 (its other extents are not constants)",
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

// __launch_bounds__ and no launch in view: its 256 threads as one row stand
// for the shape only where threadIdx.y is not read. The transposed read of a
// 16x16 tile is evaluated at every width up to 256: at 16, the two rows of a
// warp meet 8 lanes to a bank (a 1-D block would put all 16 on one).
__global__ void __launch_bounds__(256) tile16(float *o) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK: bounded-shape.cu:[[# @LINE-1]]:20: warning: 8-way bank conflict reading 't': 8 lanes of warp 0 read 8 distinct words of bank 0 (8 wavefronts, ideal 1) at blockDim.x=16
// CHECK: bounded-shape.cu:[[# @LINE-2]]:20: note: {{.*}}(block shape not known: every width it may have was evaluated, up to 256 threads (__launch_bounds__); --block-dim pins it)
}

// A bound below a warp: blocks of at most 16 threads, one row of 16 tried
// (no width of 32 or more exists).
__global__ void __launch_bounds__(16) halfWarp(float *o) {
  __shared__ float s[64][32];
  s[threadIdx.y][threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x][threadIdx.y];
// CHECK: bounded-shape.cu:[[# @LINE-1]]:20: warning: 16-way bank conflict reading 's': 16 lanes of warp 0 read 16 distinct words of bank 0 (16 wavefronts, ideal 1) at blockDim.x=16
}
// JSON: "block_dim_note": "a 1-D block of up to 16 threads (__launch_bounds__'s maximum at {{.*}}bounded-shape.cu:{{[0-9]+}}): no launch of 'halfWarp'

// A bound outside 1..1024 bounds no launch (a block has at most 1,024
// threads): the note names it as one that bounds nothing.
__global__ void __launch_bounds__(2048) tooBig(float *o) {
  __shared__ float s[1024];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x];
}
// JSON: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'tooBig' with a constant block size in this file or the others searched, __launch_bounds__(2048) at {{.*}}bounded-shape.cu:[[# @LINE-6]] (outside 1..1024), which bounds no launch, and no --block-dim (pass --block-dim=X,Y,Z to pin it)",

void launch(float *o, int width) {
  bounded<<<1, dim3(width, 2)>>>(o);
  unbounded<<<1, dim3(width, 2)>>>(o);
  halfWarp<<<1, dim3(width, width)>>>(o);
}
