// An error outside every function (here a namespace-scope declaration) stops
// the whole file: the compiler's errors, no analysis, exit 2.
// RUN: %expect-exit 2 %cbl %s 2>&1 | %FileCheck %s
// RUN: %expect-exit 2 %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// CHECK: parse-error.cu:[[# @LINE+8]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclared'
// CHECK: error: '{{.*}}parse-error.cu' does not compile for the device side; nothing analysed
// CHECK: 1 file analysed (0 partly, 1 not at all), 0 shared accesses, 0 warnings, 1 error
// JSON: "errors": 1,
// JSON: "translation_units": [
// JSON: "error": "use of undeclared identifier 'undeclared'",
// JSON-NEXT: "error_location": {
// JSON: "status": "failed"
const int Size = undeclared;
__global__ void k(float *o) {
  __shared__ float s[32];
  o[threadIdx.x] = s[threadIdx.x * 2];
}
