// A device function no kernel of this file calls, analysed on its own: the
// summary says it is one, not a kernel (unmodelled-helper.test).
static __device__ void tileOp(float *s) {
  __shared__ float t[64];
  t[__popc(threadIdx.x)] = s[threadIdx.x];
}
__global__ void k(float *o) {
  __shared__ float s[64];
  s[__popc(threadIdx.x)] = 1.0f;
  o[threadIdx.x] = s[threadIdx.x];
}
void launch(float *o) { k<<<1, 64>>>(o); }
