// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// Discovery: pointers derived from a shared array (casts, arithmetic,
// dereference, reinterpret_cast to float4, references), read-modify-writes,
// a 3-D array at namespace scope, constants folded from macros, enums,
// constexpr, static const members, sizeof/alignof and template arguments; one
// record per template instantiation, named with its arguments.
#define PAD 0
enum { Width = 32 };
constexpr int kRows = 4;
struct Cfg { static const int Stride = 2; };
__shared__ float global3d[2][4][32];
template <typename T, int N>
__global__ void discover(float *o, int k) {
  __shared__ T buf[N * 32 + PAD];
  unsigned tid = threadIdx.x;
  float *p = (float *)buf + 1;
  p[tid] = 0;                              // float at stride 1
  *(p + Cfg::Stride * tid) = 1;            // stride 2
  float4 *v = reinterpret_cast<float4 *>(buf);
  o[tid] = v[tid].x;                       // 16-byte element, 4 bytes read
  buf[tid] += 1;                           // load + store
  buf[sizeof(T) * tid]++;                  // load + store, stride sizeof(T)
  global3d[1][tid % kRows][tid / kRows] = 2; // 3-D, namespace scope
  o[tid] += buf[alignof(float4) * tid / Width];
  T &r = buf[tid * 2];
  r = 3;                                   // through a reference: 2-way
}
int main() {
  float *o;
  discover<float, 4><<<1, 32>>>(o, 1);
  discover<double, 2><<<1, 32>>>(o, 1);
  return 0;
}
// One finding per location, access kind and check; the other instantiation
// is a note; so is the store of a read-modify-write.
// CHECK-DAG: discovery.cu:19:3: warning: 2-way bank conflict writing 'buf' in 'discover<float, 4>': 2 lanes of warp 0 write 2 distinct words of bank 1 (2 wavefronts, ideal 1)
// CHECK-DAG: note: also writing: 2-way (2 wavefronts, ideal 1) in 'discover<double, 2>' with block 32x1x1
// CHECK-DAG: discovery.cu:21:12: warning: 4-way bank conflict reading 'buf' through 'v' in 'discover<float, 4>': 4 lanes of warp 0 read 4 distinct words of bank 0 (4 wavefronts, ideal 1)
// CHECK-DAG: discovery.cu:23:3: warning: 8-way bank conflict reading 'buf' in 'discover<double, 2>': 8 lanes of warp 0 read 8 distinct words of bank 0 in phase 0 of 2 (16 wavefronts, ideal 2)
// CHECK-DAG: discovery.cu:23:3: note: also writing: 8-way (16 wavefronts, ideal 2){{$}}
// CHECK-DAG: note: also reading: 4-way (4 wavefronts, ideal 1) in 'discover<float, 4>' with block 32x1x1
// CHECK-DAG: discovery.cu:24:3: warning: 4-way bank conflict writing 'global3d' in 'discover<float, 4>'
// CHECK-DAG: discovery.cu:27:3: warning: 2-way bank conflict writing 'buf' in 'discover<double, 2>': 2 lanes of warp 0 write 2 distinct words of bank 0 in phase 0 of 2 (4 wavefronts, ideal 2)
// EXPLAIN-DAG: discovery.cu:18:3: remark: store of 4 bytes from 'buf' in 'discover<float, 4>' (p[tid]): conflict-free
// EXPLAIN-DAG: discovery.cu:22:3: remark: load of 4 bytes from 'buf' in 'discover<float, 4>' (buf[tid]): conflict-free
// EXPLAIN-DAG: discovery.cu:22:3: remark: store of 4 bytes from 'buf' in 'discover<float, 4>' (buf[tid]): conflict-free
// EXPLAIN-DAG: discovery.cu:22:3: remark: load of 8 bytes from 'buf' in 'discover<double, 2>' (buf[tid]): conflict-free, 2 wavefronts (ideal 2)
// EXPLAIN-DAG: discovery.cu:25:13: remark: load of 4 bytes from 'buf' in 'discover<float, 4>' (buf[alignof(float4) * tid / Width]): conflict-free
