// The byte offset a finding shows reads as a person would simplify it, where
// that writes fewer constants: the factor common to its terms taken out once
// ('(C + i * 2) * 4', not 'C * 4 + i * 2 * 4'), the constants of a sum added
// up (a scan's pointer one element into its buffer, 'list + 1', indexed at
// 'offset * (2 * tid + 2) - 1', is at byte 'offset * (threadIdx.x * 2 + 2) *
// 2', not '2 + (... - 1) * 2'). Other offsets keep their form. JSON keeps
// the code's. The message names the pointer the source indexes too: 'list'
// through 'blocking'.
// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --check-prefix=REMARK

__global__ void scan(unsigned short *out, int n) {
  __shared__ unsigned short list[513];
  unsigned short *blocking = list + 1;
  unsigned tid = threadIdx.x, offset = 1;
  blocking[tid] = out[tid];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      blocking[bi] = blocking[bi] + blocking[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[tid] = blocking[tid];
}

// Pairs of floats: '(C + i * 2) * 4', the code's 'C * 4 + i * 2 * 4'.
__global__ void pairs(float *out, int C) {
  extern __shared__ float shared[];
  float *weights = shared + C;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    out[i] = weights[i * 2] + weights[i * 2 + 1];
}

// Padded rows: '(threadIdx.x * 2 + (threadIdx.x >> 3)) * 4' is kept.
__global__ void padded(float *out) {
  __shared__ float temp[256 + 16];
  unsigned t = threadIdx.x * 2;
  temp[t + (t >> 4)] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = temp[t + (t >> 4)];
}

// A product's constants multiplied out: 's * threadIdx.x * 8', the code's
// 's * 2 * threadIdx.x * 4'.
__global__ void interleaved(int *out, int s) {
  __shared__ int sdata[1024];
  int tid = threadIdx.x;
  sdata[tid] = out[tid];
  __syncthreads();
  int index = 2 * s * tid;
  if (index < 1024)
    out[tid] = sdata[index];
}
// REMARK: offset-text.cu:[[# @LINE-2]]:16: note: byte offset in 'sdata' = s * threadIdx.x * 8 (block

// A remark names the pointer too.
__global__ void lookup(const int *keys, int *out) {
  __shared__ int bins[256];
  int *counts = bins;
  counts[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = counts[keys[threadIdx.x] & 255];
}
// REMARK: offset-text.cu:[[# @LINE-2]]:22: remark: data-dependent cost reading 'bins' through 'counts': on random values of

void launch(unsigned short *u, float *f, int c, const int *k, int *o) {
  scan<<<1, 256>>>(u, c);
  pairs<<<1, 256, 4096>>>(f, c);
  padded<<<1, 128>>>(f);
  lookup<<<1, 256>>>(k, o);
  interleaved<<<1, 256>>>(o, c);
}

// CHECK: offset-text.cu:23:7: warning: up to 8-way bank conflict reading 'list' through 'blocking':
// CHECK: offset-text.cu:23:7: note: byte offset in 'list' = offset * (threadIdx.x * 2 + 2) * 2:
// CHECK: offset-text.cu:23:37: note: byte offset in 'list' = offset * (threadIdx.x * 2 + 1) * 2:
// CHECK: offset-text.cu:36:14: note: byte offset in 'shared' = (C + i * 2) * 4:
// CHECK: offset-text.cu:36:31: note: byte offset in 'shared' = (C + i * 2 + 1) * 4:
// CHECK: offset-text.cu:43:3: note: byte offset in 'temp' = (threadIdx.x * 2 + (threadIdx.x >> 3)) * 4:

// JSON: "byte_offset": "2 + (offset * (threadIdx.x * 2 + 2) - 1) * 2",
