// Host-only code that Clang's CUDA mode rejects (nvcc accepts it) does not stop
// the analysis of device code; the skipped functions are named.
// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: %cbl --verbose %s 2>&1 | %FileCheck %s --check-prefix=VERBOSE
__device__ int deviceOnly() { return 1; }
__global__ void column(float *o) {
  __shared__ float t[32][32];
  o[threadIdx.x] = t[threadIdx.x][0];
}
// CHECK: host-errors.cu: note: Clang rejects host code in 'hostHelper' (nvcc accepts it); device code was analysed (--verbose shows the errors)
// CHECK: host-errors.cu:[[# @LINE-3]]:20: warning: 32-way bank conflict reading 't'
int hostHelper() { return deviceOnly(); }
// VERBOSE: host-errors.cu:[[# @LINE-1]]:27: error: no matching function for call to 'deviceOnly'
void launch(float *o) { column<<<1, 32>>>(o); }
