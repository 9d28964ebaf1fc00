// RUN: %cbl --format=json %s | %FileCheck %s
// An offset that moves every lane alike by a run-time amount in steps finer
// than a bank word (a byte buffer carved at 2 * sel, read at tid + sel - 1:
// HeCBench morphology's two-way scan) is exact when the warp costs the same
// at every such shift that keeps the lanes aligned: 32 consecutive bytes
// always take one wavefront. Where the shift changes the cost (two bytes 125
// bytes apart share a word's bank only at some shifts) the cases are stated.

__global__ void carved(unsigned char *dst, const unsigned char *src, int sel) {
  extern __shared__ unsigned char sm[];
  unsigned char *op = sm + 2 * sel;
  op[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
  dst[threadIdx.x] = op[threadIdx.x + sel - 1];
}

__global__ void halves(short *dst, int sel) {
  __shared__ short h[1024];
  h[threadIdx.x] = 0;
  __syncthreads();
  dst[threadIdx.x] = h[threadIdx.x + 3 * sel];
}

__global__ void apart(unsigned char *dst, int sel) {
  __shared__ unsigned char b[1024];
  b[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x < 2)
    dst[threadIdx.x] = b[sel + (threadIdx.x ? 128 : 3)];
}

void launch(unsigned char *d, const unsigned char *s, short *h, int sel) {
  carved<<<1, 256, 1024>>>(d, s, sel);
  halves<<<1, 256>>>(h, sel);
  apart<<<1, 256>>>(d, sel);
}

// Keys in the JSON's order: byte_offset, function, line, op, parameters, reason, status.
// CHECK: "byte_offset": "sel * 2 + (threadIdx.x - 1 + sel)",
// CHECK: "function": "carved",
// CHECK: "line": 14,
// CHECK: "parameters": [
// CHECK-NEXT: "sel"
// CHECK: "status": "exact",
// CHECK-NEXT: "wavefronts": 1,

// CHECK: "byte_offset": "(sel * 3 + threadIdx.x) * 2",
// CHECK: "function": "halves",
// CHECK: "line": 21,
// CHECK: "status": "exact",
// CHECK-NEXT: "wavefronts": 1,

// CHECK: "byte_offset": "(threadIdx.x == 0 ? 3 : 128) + sel",
// CHECK: "function": "apart",
// CHECK: "line": 29,
// CHECK: "reason": "the cost depends on the value of 'sel': 2-way when 'sel' is a multiple of 4 (for 'sel' >= 0)",
// CHECK-NEXT: "status": "bound",
// CHECK-NEXT: "wavefronts": 2,
