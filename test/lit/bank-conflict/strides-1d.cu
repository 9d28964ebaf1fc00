// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// 1-D float array read at stride S: degree gcd(S, 32), one wavefront per
// distinct word of the busiest bank.

template <int S>
__global__ void strideRead(float *out) {
  __shared__ float s[32 * 33];
  out[threadIdx.x] = s[S * threadIdx.x];
}
// One finding for the five instantiations that conflict: the worst, and the
// others as notes (worst first, at the launch that makes each), then a count.
// CHECK: strides-1d.cu:9:22: warning: 32-way bank conflict reading 's' in 'strideRead<32>': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1)
// CHECK: strides-1d.cu:{{[0-9]+}}:61: note: also reading: 16-way (16 wavefronts, ideal 1) in 'strideRead<16>' with block 32x1x1
// CHECK: strides-1d.cu:{{[0-9]+}}:32: note: also reading: 8-way (8 wavefronts, ideal 1) in 'strideRead<8>' with block 32x1x1
// CHECK: strides-1d.cu:{{[0-9]+}}:3: note: also reading: 4-way (4 wavefronts, ideal 1) in 'strideRead<4>' with block 32x1x1
// CHECK: note: and 1 more instance (instantiations, call sites or block shapes); --format=json lists every access
// EXPLAIN-DAG: strides-1d.cu:9:22: remark: load of 4 bytes from 's' in 'strideRead<1>' (s[S * threadIdx.x]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN-DAG: strides-1d.cu:9:22: remark: load of 4 bytes from 's' in 'strideRead<3>' (s[S * threadIdx.x]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN-DAG: strides-1d.cu:9:22: remark: load of 4 bytes from 's' in 'strideRead<33>' (s[S * threadIdx.x]): conflict-free, 1 wavefront (ideal 1)

// All lanes read one word (broadcast), and four lanes share each word.
__global__ void sharedWords(float *out) {
  __shared__ float s[64];
  out[threadIdx.x] = s[5];
  out[threadIdx.x] += s[threadIdx.x / 4];
}
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-3]]:22: remark: load of 4 bytes from 's' in 'sharedWords' (s[5]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-3]]:23: remark: load of 4 bytes from 's' in 'sharedWords' (s[threadIdx.x / 4]): conflict-free, 1 wavefront (ideal 1)

// Sub-word accesses: bytes of one word never conflict; short[4*tid] puts
// lanes l and l+16 on bank (2l mod 32) at different words.
__global__ void narrow(int *out) {
  __shared__ char c[256];
  __shared__ short h[256];
  out[threadIdx.x] = c[threadIdx.x] + c[4 * threadIdx.x] + h[threadIdx.x] + h[4 * threadIdx.x];
}
// CHECK-DAG: strides-1d.cu:[[# @LINE-2]]:77: warning: 2-way bank conflict reading 'h': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-3]]:22: remark: load of 1 bytes from 'c' in 'narrow' (c[threadIdx.x]): conflict-free
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-4]]:39: remark: load of 1 bytes from 'c' in 'narrow' (c[4 * threadIdx.x]): conflict-free
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-5]]:60: remark: load of 2 bytes from 'h' in 'narrow' (h[threadIdx.x]): conflict-free

// int s[64] read as s[2*tid] and s[2*tid+1]: 2-way each as written, but nvcc
// merges the two loads into one LDS.64, which is conflict-free (measured on an
// H100: 2 wavefronts, ideal 2; compiler-merging.cu has the other cases).
__global__ void pairs(int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  out[tid] = s[2 * tid] + s[2 * tid + 1];
}
// CHECK-NOT: strides-1d.cu:[[# @LINE-2]]:{{.*}} bank conflict
// EXPLAIN-DAG: strides-1d.cu:[[# @LINE-3]]:14: remark: load of 8 bytes from 's' in 'pairs' (s[2 * tid]): conflict-free, 2 wavefronts (ideal 2) in warp 0

void launch(float *o, int *p) {
  strideRead<1><<<1, 32>>>(o); strideRead<2><<<1, 32>>>(o); strideRead<3><<<1, 32>>>(o);
  strideRead<4><<<1, 32>>>(o); strideRead<8><<<1, 32>>>(o); strideRead<16><<<1, 32>>>(o);
  strideRead<32><<<1, 32>>>(o); strideRead<33><<<1, 32>>>(o);
  sharedWords<<<1, 32>>>(o); narrow<<<1, 32>>>(p); pairs<<<1, 32>>>(p);
}
