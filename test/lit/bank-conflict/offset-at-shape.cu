// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: %cbl --format=json %s | %FileCheck --check-prefix=JSON %s
// The explaining note writes the byte offset at the block shape it states:
// blockDim its extents, threadIdx.y and .z 0 in a block of one row (a flat
// thread index written for any shape reads as what it is at 256x1x1). JSON
// keeps the offset as the code computes it.
__global__ void flat(float *out) {
  __shared__ float s[256 * 32];
  unsigned t = threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x;
  s[(t % 32) * 32] = 1.0f;
  // CHECK: offset-at-shape.cu:[[@LINE-1]]:3: warning: 32-way bank conflict writing 's'
  // CHECK: note: byte offset in 's' = (threadIdx.x * 32 & 992) * 4: lanes 0-31 hit bank 0 {{.*}}(block 256x1x1 from the launch at {{.*}}offset-at-shape.cu:17:3)
  // JSON: "byte_offset": "(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) * 32 & 992) * 4",
  out[threadIdx.x] = s[threadIdx.x];
}
void launch(float *o) {
  flat<<<1, 256>>>(o);
}
