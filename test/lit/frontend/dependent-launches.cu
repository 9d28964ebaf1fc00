// Launches inside host function templates whose block shape comes from a
// dependent member or parameter (issue #17's reproducers, seen in HeCBench):
// the template pattern is not evaluated, the instantiations are; no crash.
// The block is a parameter of the launching function: the calls in main give
// it (64 threads).
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s
template <typename T> struct P { const int n; };
__global__ void k(P<float> p, float *o) {
  __shared__ float s[64];
  o[threadIdx.x] = s[threadIdx.x * 2];
}
template <typename T> void host(int m, float *o) {
  P<T> p{m};
  dim3 block(p.n);
  k<<<1, block>>>(p, o);
}
__global__ void k2(float *o) {
  __shared__ float s[64];
  o[threadIdx.x] = s[threadIdx.x];
}
template <typename T> void host2(T p, float *o) { dim3 b(p); k2<<<1, b>>>(o); }
int main() {
  host<float>(64, nullptr);
  host2<int>(64, nullptr);
}
// CHECK: dependent-launches.cu:10:20: warning: 2-way bank conflict reading 's'
// CHECK: note: byte offset in 's' = threadIdx.x * 8: lanes 0, 16 hit bank 0 at words 0, 32 (block 64x1x1 from the launch at {{.*}}dependent-launches.cu:15:3 as called from {{.*}}dependent-launches.cu:23:3)
// CHECK: 1 file analysed, 2 shared accesses (2 exact), 1 warning, 0 errors
