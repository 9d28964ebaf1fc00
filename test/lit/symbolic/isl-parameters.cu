// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// Several kernel parameters in the lane coefficients: for each pair of lanes
// the words differ by a linear form in the parameters, so "some two lanes hit
// different words of one bank" is a Presburger set; isl decides whether it is
// empty (conflict-free for every value) and simplifies it for the message.

__global__ void parameters(float *o, int a, int b) {
  __shared__ float s[32 * 1024];
  // Odd stride 2a+1 and any offset b: conflict-free for all values.
  o[threadIdx.x] = s[threadIdx.x * (2 * a + 1) + b];
  // Stride a + 2b: lanes collide when it is even and not zero; no single
  // parameter decides it, so isl states the condition.
  o[threadIdx.x] += s[threadIdx.x * (a + 2 * b)];
  // Stride a with a uniform offset 32b: isl proves some values conflict; the
  // degree for each value of a comes from one period of a (mod 32 words).
  o[threadIdx.x] += s[threadIdx.x * a + 32 * b];
}
// EXPLAIN: isl-parameters.cu:11:20: remark: load of 4 bytes from 's' in 'parameters' (s[threadIdx.x * (2 * a + 1) + b]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of a, b
// CHECK: isl-parameters.cu:[[# @LINE-6]]:21: remark: possible bank conflict reading 's': two lanes access different words of one bank when a is even and (2*b <= -2 - a or 2*b >= 2 - a) (decided with isl; the degree is not computed)
// CHECK: isl-parameters.cu:[[# @LINE-4]]:21: remark: possible bank conflict reading 's': 32-way when 'a' is a multiple of 32; 16-way when 'a' mod 32 is 16; 8-way when 'a' mod 16 is 8; 4-way when 'a' mod 8 is 4; 2-way when 'a' mod 4 is 2, except 'a' = 0 (conflict-free) (for 'a' >= 0)

// Stride 2s ints: lanes collide for every s but 0, said as 's != 0' (isl:
// 's < 0 or s > 0').
__global__ void doubled(int *o, int s) {
  __shared__ int d[1024];
  d[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  int index = 2 * s * threadIdx.x;
  if (index < 1024)
    o[threadIdx.x] = d[index];
}
// CHECK: isl-parameters.cu:[[# @LINE-2]]:22: remark: possible bank conflict reading 'd': two lanes access different words of one bank when s != 0 (decided with isl

void launch(float *o, int a, int b, int *i) {
  parameters<<<1, 32>>>(o, a, b);
  doubled<<<1, 256>>>(i, a);
}
