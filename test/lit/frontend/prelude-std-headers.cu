// Without a CUDA toolkit (the built-in prelude), files that include the C and
// C++ standard headers compile as with nvcc: the prelude declares device-side
// overloads of printf and the math functions, which the host declarations of
// <cstdio>, <cmath> and <cstdlib> do not clash with.
// RUN: %cbl %s 2>&1 | %FileCheck %s
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <cassert>
#include <algorithm>
#include <vector>
#include <iostream>

__global__ void usesLibrary(float *o) {
  __shared__ float s[64];
  s[threadIdx.x * 2] = sqrtf(o[threadIdx.x]) + fabsf(o[1]) + float(abs(int(o[2])));
  assert(o[0] >= 0.0f);
  if (threadIdx.x == 0)
    printf("%f\n", s[0]);
}
// CHECK: prelude-std-headers.cu:[[# @LINE-5]]:3: warning: 2-way bank conflict writing 's'
// CHECK: 1 file analysed, 2 shared accesses (2 exact), 1 warning, 0 errors

int main() {
  std::vector<float> v(64, 1.0f);
  printf("%f\n", std::sqrt(v[0]) + std::abs(-1));
}
