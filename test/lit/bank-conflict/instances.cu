// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %cbl --export-fixes=%t/fixes.yaml %t/k.cu > /dev/null 2>&1
// RUN: grep -c "ReplacementText" %t/fixes.yaml | %FileCheck --check-prefix=ONCE %s
// RUN: %cbl --fix %t/k.cu > /dev/null 2>&1
// RUN: %cbl %t/k.cu 2>&1 | %FileCheck --check-prefix=FIXED %s
// One finding per location, check and kind: instantiations, call sites and
// block shapes that reach an access are notes of one finding, the worst
// shown; NOLINT on a call's line silences that call's instance only.

__device__ float readStrided(const float *s, int stride) {
  return s[threadIdx.x * stride];
}
__global__ void twoCalls(float *out) {
  __shared__ float s[32 * 8];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = readStrided(s, 2);
  out[threadIdx.x] += readStrided(s, 4); // NOLINT(cuda-shared-bank-conflict)
  out[threadIdx.x] += readStrided(s, 8);
}
// CHECK: instances.cu:12:10: warning: 8-way bank conflict reading 's': 8 lanes of warp 0 read 8 distinct words of bank 0 (8 wavefronts, ideal 1)
// CHECK: instances.cu:20:23: note: in 'readStrided' as called from 'twoCalls' here, with these arguments
// CHECK: instances.cu:18:22: note: also reading: 2-way (2 wavefronts, ideal 1) in 'twoCalls' through the call at line 18 with block 32x1x1
// CHECK-NOT: note: also {{.*}}4-way

// The padding that would remove the 16x16 conflict of transpose<32> (by 16)
// makes transpose<16> at 16x16 2-way, and no padding serves both: none is
// offered (the matrixMul case).
template <int N>
__global__ void transpose(float *out) {
  __shared__ float tile[N][N];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// CHECK: instances.cu:[[# @LINE-2]]:40: warning: 32-way bank conflict reading 'tile' in 'transpose<32>'
// CHECK: note: no padding of the innermost dimension of 'tile' up to 32 elements removes this conflict
// CHECK: instances.cu:{{[0-9]+}}:3: note: also reading: 8-way (8 wavefronts, ideal 1) in 'transpose<16>' with block 16x16x1

// A padding that serves every instantiation at its shape is offered once,
// and after it is applied no access to 'col' conflicts.
template <int R>
__global__ void columns(float *out) {
  __shared__ float col[R * 32][32];
  col[threadIdx.y * 32 + threadIdx.x][0] = 1;
  __syncthreads();
  out[threadIdx.x] = col[threadIdx.x][threadIdx.y];
}
// CHECK: instances.cu:[[# @LINE-4]]:3: warning: 32-way bank conflict writing 'col' in 'columns<{{[12]}}>'
// CHECK: note: fix-it: pad 'col' to 'col[R * 32][32 + 1]' (verified in each of its 2 instantiations for the block shapes considered: this access conflict-free ({{[0-9]+}} wavefront{{s?}} instead of {{[0-9]+}}), no access to 'col' worse)
// CHECK: note: also writing: 32-way
// CHECK: instances.cu:[[# @LINE-5]]:22: warning: 32-way bank conflict reading 'col' in 'columns<{{[12]}}>'
// CHECK: instances.cu:[[# @LINE-9]]:20: note: fix-it: the same as at line [[# @LINE-8]]{{$}}
// CHECK: note: also reading: 32-way
// ONCE: {{^}}1{{$}}
// FIXED-NOT: warning: {{.*}}'col'
// FIXED: 'tile' in 'transpose<32>'
// FIXED-NOT: warning: {{.*}}'col'

// A definite conflict from one call and a possible one (it depends on 'k')
// from another: one finding, at the more severe level, the other a note.
__device__ float rd(const float *s, int k) { return s[threadIdx.x * k]; }
__global__ void possible(float *out, int k) {
  __shared__ float s[32 * 64];
  out[threadIdx.x] = rd(s, 2);
  out[threadIdx.x] += rd(s, k);
}
// CHECK: instances.cu:[[# @LINE-6]]:53: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: instances.cu:[[# @LINE-3]]:23: note: also reading: a possible conflict (32-way when 'k' is a multiple of 32;{{.*}}) in 'possible' through the call at line [[# @LINE-3]]
// CHECK-NOT: remark: possible bank conflict

int main(int argc, char **) {
  float *o;
  twoCalls<<<1, 32>>>(o);
  transpose<16><<<1, dim3(16, 16)>>>(o);
  transpose<32><<<1, dim3(32, 32)>>>(o);
  columns<1><<<1, 32>>>(o);
  columns<2><<<1, dim3(32, 2)>>>(o);
  possible<<<1, 32>>>(o, argc);
}
