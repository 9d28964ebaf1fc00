// Example: 64- and 128-bit shared accesses. Linear float2/float4 reads need
// 2 and 4 wavefronts and are conflict-free; a stride of two float4 is not.
__global__ void vectorLoads(float4 *out) {
  __shared__ float4 v4[256];
  __shared__ float2 v2[256];
  unsigned tid = threadIdx.x;
  v4[tid] = make_float4(tid, tid, tid, tid);
  v2[tid] = make_float2(tid, tid);
  __syncthreads();
  float4 a = v4[tid];         // 4 wavefronts, ideal 4
  float2 b = v2[tid];         // 2 wavefronts, ideal 2
  float4 c = v4[2 * tid % 256]; // stride 32 bytes: 2-way
  out[tid] = make_float4(a.x + b.x, a.y + b.y, c.z, c.w);
}

void launch(float4 *out) { vectorLoads<<<1, 256>>>(out); }
