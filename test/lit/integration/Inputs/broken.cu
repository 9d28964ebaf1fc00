// Does not compile for the device side (a parse error at file scope):
// nothing in it is analysed.
__global__ void broken(float *out) {
  __shared__ float s[32];
  out[threadIdx.x] = s[threadIdx.x];
}
struct Missing { int x } semicolon;
