// A file whose device code does not compile: the compiler's errors and exit 2.
// RUN: %expect-exit 2 %cbl %s 2>&1 | %FileCheck %s
// CHECK: parse-error.cu:[[# @LINE+4]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclared'
// CHECK: error: '{{.*}}parse-error.cu' does not compile for the device side; nothing analysed
__global__ void broken(float *o) {
  __shared__ float s[32];
  o[threadIdx.x] = s[undeclared];
}
