// RUN: %cbl --format=json --block-dim=32 %s | python3 -c "import json,sys,collections; c=collections.Counter((a['function'],a['line'],a['op'],a['width']) for a in json.load(sys.stdin)['accesses']); [print(*k, 'x%d' % v) for k, v in sorted(c.items())]" | %FileCheck %s
// Which constant-trip loops are unrolled whole, as NVVM does (nvcc 13's PTX,
// utils/oracles/full-unroll.cu): up to about twice LLVM's -O3 size, a nest of
// constant loops whole, but never an outer loop whose inner loop's trip count
// the outer counter sets (HeCBench lud's triangular solve), which NVVM keeps
// as a loop: unrolled, LLVM would forward the stored values to loads nvcc
// issues. An inner trip count that is not a computable count (a bitonic
// sort's `stride >>= 1`) lets the outer loop be unrolled whole.

// Triangular: the outer loop stays a loop; its loads and stores are one
// record each (per form of the loop), not one per unrolled copy.
__global__ void triangular(float *out) {
  __shared__ float s[32 * 8];
  __shared__ float d[8 * 8];
  int t = threadIdx.x;
  s[t] = t;
  d[t] = 2 * t;
  __syncthreads();
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < i; j++)
      s[t * 8 + i] -= s[t * 8 + j] * d[j * 8 + i];
    s[t * 8 + i] /= d[i * 8 + i];
  }
  __syncthreads();
  out[t] = s[t];
}
// CHECK-DAG: triangular 21 ld 4 x2
// CHECK-DAG: triangular 21 st 4 x1
// CHECK-DAG: triangular 22 ld 4 x2
// CHECK-DAG: triangular 22 st 4 x1

// 31 iterations of a chain through a table (HeCBench bh's tree levels):
// unrolled whole, its stores merged into STS.128 as nvcc does.
__global__ void table(const float *radius, float eps, float *out) {
  __shared__ float dq[32];
  int i;
  if (threadIdx.x == 0) {
    float t = *radius;
    dq[0] = t * t;
    for (i = 1; i < 31; i++) {
      dq[i] = dq[i - 1] * 0.25f;
      dq[i - 1] += eps;
    }
    dq[i - 1] += eps;
  }
  __syncthreads();
  out[threadIdx.x] = dq[threadIdx.x];
}
// CHECK-DAG: table 42 st 8 x1
// CHECK-DAG: table 42 st 16 x7

// A constant nest: unrolled whole (16 x 4 words, 16 LDS.128).
__global__ void constant_nest(float *out) {
  __shared__ float s[32 * 64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  float v = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 4; j++)
      v += s[t * 64 + i * 4 + j];
  out[t] = v;
}
// CHECK-DAG: constant_nest 61 ld 16 x16
