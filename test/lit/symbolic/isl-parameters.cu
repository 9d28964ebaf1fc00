// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// Several kernel parameters in the lane coefficients: for each pair of lanes
// the words differ by a linear form in the parameters, so "some two lanes hit
// different words of one bank" is a Presburger set; isl decides whether it is
// empty (conflict-free for every value) and simplifies it for the message.

__global__ void parameters(float *o, int a, int b) {
  __shared__ float s[32 * 1024];
  // Odd stride 2a+1 and any offset b: conflict-free for all values.
  o[threadIdx.x] = s[threadIdx.x * (2 * a + 1) + b];
  // Stride a: lanes collide when a is even and not zero.
  o[threadIdx.x] += s[threadIdx.x * a + 32 * b];
}
// EXPLAIN: isl-parameters.cu:[[# @LINE-4]]:20: remark: load of 4 bytes from 's' in 'parameters' (s[threadIdx.x * (2 * a + 1) + b]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of a, b
// CHECK: isl-parameters.cu:[[# @LINE-3]]:21: remark: possible bank conflict reading 's': two lanes access different words of one bank when (a) mod 2 = 0 and (a <= -2 or a >= 2) (decided with isl; the degree is not computed)
// EXPLAIN: isl-parameters.cu:[[# @LINE-4]]:21: remark: load of 4 bytes from 's' in 'parameters' (s[threadIdx.x * a + 32 * b]): bound: the cost depends on 'a', 'b': two lanes access different words of one bank when (a) mod 2 = 0

void launch(float *o) { parameters<<<1, 32>>>(o, 1, 2); }
