// nvcc merges adjacent shared-memory accesses of one straight-line stretch of
// code into 64- and 128-bit instructions when it can prove the address
// aligned; the tool costs the merged instruction. Each kernel below was
// compiled with nvcc 13.0 (-O3 -arch=sm_90) and run on an H100, one warp, with
// Nsight Compute's source counters (2026-11-23); the comment above each says
// what the SASS was and the wavefronts/ideal measured for the read or write
// pair.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
struct F4 { float v, x, y, z; };

// k1_static_pair: LDS.64, 2/2 wavefronts/ideal: a static int array (PTX .align 4; ptxas merges).
__global__ void k1_static_pair(int *out) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; s[t+32] = t; __syncthreads(); out[t] = s[2 * t] + s[2 * t + 1]; }

// k2_extern_pair: LDS.64, 2/2: dynamic shared memory.
__global__ void k2_extern_pair(float *out) { extern __shared__ float e[]; unsigned t = threadIdx.x; e[t] = t; __syncthreads(); out[t] = e[2 * t] + e[2 * t + 1]; }

// k3_reversed: LDS.64, 2/2: the loads in the other order.
__global__ void k3_reversed(int *out) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); int b = s[2 * t + 1]; int a = s[2 * t]; out[t] = a * 3 + b; }

// k4_store_pair: STS.64, 2/2: a pair of stores.
__global__ void k4_store_pair(int *out) { __shared__ int s[64]; unsigned t = threadIdx.x; s[2 * t] = out[t]; s[2 * t + 1] = out[t + 1]; __syncthreads(); out[t] = s[t]; }

// k5_misaligned: not merged, LDS 2/1 each: 2t+1 and 2t+2 start 4 bytes into an 8-byte pair.
__global__ void k5_misaligned(int *out) { __shared__ int s[70]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); out[t] = s[2 * t + 1] + s[2 * t + 2]; }

// k6_quad: LDS.128, 4/4: four floats.
__global__ void k6_quad(float *out) { __shared__ float s[128]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); out[t] = s[4 * t] + s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3]; }

// k7_float4_components: STS.128, 4/4: the four component stores of a float4.
__global__ void k7_float4_components(float4 *out) { __shared__ float4 s[32]; unsigned t = threadIdx.x; float4 v = out[t]; s[t].x = v.x; s[t].y = v.y; s[t].z = v.z; s[t].w = v.w; __syncthreads(); out[t] = s[31 - t]; }

// k8_struct_copy: STS.128 and LDS.128, 4/4: a struct of four floats copied in and out.
__global__ void k8_struct_copy(F4 *out) { __shared__ F4 s[32]; unsigned t = threadIdx.x; s[t] = out[t]; __syncthreads(); out[t] = s[31 - t]; }

// k9_barrier_between: not merged, LDS 2/1 each: a barrier between the loads.
__global__ void k9_barrier_between(int *out) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); int a = s[2 * t]; __syncthreads(); int b = s[2 * t + 1]; out[t] = a + b; }

// k10_same_if: LDS.64, 2/2: both loads under one if.
__global__ void k10_same_if(int *out, int n) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); if (t < n) { out[t] = s[2 * t] + s[2 * t + 1]; } }

// k11_volatile: not merged, LDS 2/1 each: volatile.
__global__ void k11_volatile(int *out) { __shared__ int s[64]; volatile int *v = s; unsigned t = threadIdx.x; v[t] = t; __syncthreads(); out[t] = v[2 * t] + v[2 * t + 1]; }

// k12_unrolled: STS.128, 4/4: the iterations of a fully unrolled loop; the strided loads of the second loop stay LDS 1/1.
__global__ void k12_unrolled(int *out) { __shared__ int s[128]; unsigned t = threadIdx.x; int items[4];
  #pragma unroll
  for (int i = 0; i < 4; ++i) s[t * 4 + i] = out[t + i];
  __syncthreads();
  #pragma unroll
  for (int i = 0; i < 4; ++i) items[i] = s[i * 32 + t];
  out[t] = items[0] + items[1] + items[2] + items[3]; }

// k13_tile_row_stride33: not merged, LDS 1/1 each: a row stride of 33 words breaks the pair alignment.
__global__ void k13_tile_row_stride33(int *out) { __shared__ int tile[32][33]; unsigned t = threadIdx.x; tile[t][t] = t; __syncthreads(); unsigned r = threadIdx.y; out[t] = tile[r][2 * t % 32] + tile[r][2 * t % 32 + 1]; }

// k14_tile_row_stride32: LDS.64, 2/2: a row stride of 32 words keeps it.
__global__ void k14_tile_row_stride32(int *out) { __shared__ int tile[32][32]; unsigned t = threadIdx.x; tile[t][t] = t; __syncthreads(); unsigned r = threadIdx.y; out[t] = tile[r][(2 * t) % 32] + tile[r][(2 * t) % 32 + 1]; }

// k15_long_pair: LDS.128, 4/4: two long longs.
__global__ void k15_long_pair(long long *out) { __shared__ long long s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); out[t] = s[2 * t] + s[2 * t + 1]; }

// k16_different_branches: LDS.64, 2/2: the second load is under a branch that ptxas speculates (hoisted and merged).
__global__ void k16_different_branches(int *out, int n) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); int a = s[2 * t]; int b = 0; if (n > 3) b = s[2 * t + 1]; out[t] = a + b; }

// k17_interleaved_store: not merged, LDS 2/1 each: a store to the array between the loads.
__global__ void k17_interleaved_store(int *out) { __shared__ int s[64]; unsigned t = threadIdx.x; s[t] = t; __syncthreads(); int a = s[2 * t]; s[t + 1] = a; int b = s[2 * t + 1]; out[t] = a + b; }

// CHECK: k1_static_pair:12:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k1_static_pair:12:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k1_static_pair:12:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:12
// CHECK: k2_extern_pair:15:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k2_extern_pair:15:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:15
// CHECK: k3_reversed:18:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k3_reversed:18:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:18
// CHECK: k4_store_pair:21:{{[0-9]+}} st 8 exact 1-way 2/2 merged:21
// CHECK: k4_store_pair:21:{{[0-9]+}} ld 4 exact 1-way 1/1
// CHECK: k5_misaligned:24:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k5_misaligned:24:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k5_misaligned:24:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k6_quad:27:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k6_quad:27:{{[0-9]+}} ld 16 exact 1-way 4/4 merged:27,27,27
// CHECK: k7_float4_components:30:{{[0-9]+}} st 16 exact 1-way 4/4 merged:30,30,30
// CHECK: k7_float4_components:30:{{[0-9]+}} ld 16 exact 1-way 4/4
// CHECK: k8_struct_copy:33:{{[0-9]+}} st 16 exact 1-way 4/4 merged:33,33,33
// CHECK: k8_struct_copy:33:{{[0-9]+}} ld 16 exact 1-way 4/4 merged:33,33,33
// CHECK: k9_barrier_between:36:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k9_barrier_between:36:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k9_barrier_between:36:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k10_same_if:39:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k10_same_if:39:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:39
// CHECK: k11_volatile:42:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k11_volatile:42:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k11_volatile:42:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k12_unrolled:47:{{[0-9]+}} st 16 exact 1-way 4/4 merged:47,47,47
// CHECK: k12_unrolled:50:{{[0-9]+}} ld 4 exact 1-way 1/1
// CHECK: k13_tile_row_stride33:54:{{[0-9]+}} st 4 exact 2-way 2/1
// CHECK: k13_tile_row_stride33:54:{{[0-9]+}} ld 4 exact 1-way 1/1
// CHECK: k13_tile_row_stride33:54:{{[0-9]+}} ld 4 exact 1-way 1/1
// CHECK: k14_tile_row_stride32:57:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k14_tile_row_stride32:57:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:57
// CHECK: k15_long_pair:60:{{[0-9]+}} st 8 exact 1-way 2/2
// CHECK: k15_long_pair:60:{{[0-9]+}} ld 16 exact 1-way 4/4 merged:60
// CHECK: k16_different_branches:63:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k16_different_branches:63:{{[0-9]+}} ld 8 exact 1-way 2/2 merged:63
// CHECK-NOT: k16_different_branches:63:{{[0-9]+}} ld 4
// CHECK: k17_interleaved_store:66:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k17_interleaved_store:66:{{[0-9]+}} ld 4 exact 2-way 2/1
// CHECK: k17_interleaved_store:66:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: k17_interleaved_store:66:{{[0-9]+}} ld 4 exact 2-way 2/1

void launch(void *buf) {
  int *ip = (int *)buf;
  float *fp = (float *)buf;
  k1_static_pair<<<1, 32>>>(ip);
  k2_extern_pair<<<1, 32, 64 * 4>>>(fp);
  k3_reversed<<<1, 32>>>(ip);
  k4_store_pair<<<1, 32>>>(ip);
  k5_misaligned<<<1, 32>>>(ip);
  k6_quad<<<1, 32>>>(fp);
  k7_float4_components<<<1, 32>>>((float4 *)buf);
  k8_struct_copy<<<1, 32>>>((F4 *)buf);
  k9_barrier_between<<<1, 32>>>(ip);
  k10_same_if<<<1, 32>>>(ip, 64);
  k11_volatile<<<1, 32>>>(ip);
  k12_unrolled<<<1, 32>>>(ip);
  k13_tile_row_stride33<<<1, 32>>>(ip);
  k14_tile_row_stride32<<<1, 32>>>(ip);
  k15_long_pair<<<1, 32>>>((long long *)buf);
  k16_different_branches<<<1, 32>>>(ip, 5);
  k17_interleaved_store<<<1, 32>>>(ip);
}
