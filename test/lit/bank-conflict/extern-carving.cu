// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// One extern __shared__ buffer carved into int, float and char arrays whose
// offsets are kernel parameters: a uniform offset in whole words cannot change
// the cost, so every verdict is exact for all values of nI and nF.

__global__ void carve(int nI, int nF, float *o) {
  extern __shared__ int ints[];
  float *floats = (float *)&ints[nI];
  char *chars = (char *)&floats[nF];
  unsigned t = threadIdx.x;
  ints[t] = t;
  floats[t] = 1.0f;
  chars[t] = 1;
  floats[t * 2] = 2.0f;
  o[t] = ints[t * 32] + floats[t] + chars[t * 4];
}
// EXPLAIN-DAG: extern-carving.cu:12:3: remark: store of 4 bytes from 'ints' in 'carve' (ints[t]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN-DAG: extern-carving.cu:13:3: remark: store of 4 bytes from 'ints' in 'carve' (floats[t]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of nI
// EXPLAIN-DAG: extern-carving.cu:14:3: remark: store of 1 bytes from 'ints' in 'carve' (chars[t]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of nF, nI
// CHECK-DAG: extern-carving.cu:15:3: warning: 2-way bank conflict writing 'ints' through 'floats': 2 lanes of warp 0 write 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK-DAG: extern-carving.cu:16:10: warning: 32-way bank conflict reading 'ints': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1)
// The offsets of 'floats' and 'chars' depend on nI and nF: no index rewrite
// of 'ints' can be verified, so none is offered.
// CHECK-DAG: note: no skew or XOR swizzle of the index of 'ints' was verified to make this access better and no access worse
// EXPLAIN-DAG: extern-carving.cu:16:37: remark: load of 1 bytes from 'ints' in 'carve' (chars[t * 4]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of nF, nI

// The classic array-reverse kernels, static and dynamic: clean for every n.
__global__ void staticReverse(int *d, int n) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}
// EXPLAIN-DAG: extern-carving.cu:[[# @LINE-2]]:10: remark: load of 4 bytes from 's' in 'staticReverse' (s[tr]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of n
__global__ void dynamicReverse(int *d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}
// EXPLAIN-DAG: extern-carving.cu:[[# @LINE-2]]:10: remark: load of 4 bytes from 's' in 'dynamicReverse' (s[tr]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of n

void launch(float *o, int *d, int n) {
  carve<<<1, 128, 4096>>>(n, n, o);
  staticReverse<<<1, 64>>>(d, n);
  dynamicReverse<<<1, 64, 64 * sizeof(int)>>>(d, n);
}
