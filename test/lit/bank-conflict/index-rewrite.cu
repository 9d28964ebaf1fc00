// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %cbl --export-fixes=%t/fixes.yaml %t/k.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=YAML %s < %t/fixes.yaml
// RUN: %cbl --fix %t/k.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=FIXED %s < %t/k.cu
// RUN: %cbl %t/k.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// A one-dimensional or extern __shared__ array has no row to pad: the fix is
// a new index in every access, in the user's own words, verified like a
// padding (every access of the array evaluated with the new offsets at
// every block shape considered: this one better, none worse) and offered as
// fix-its when every subscript can be rewritten. Applied with --fix, the
// file analysed again has no conflict left on these arrays.

// A tile kept as one row of 1024 floats, read down its columns: skewed by
// one word every 32 (s[i] -> s[i + i / 32]), the array grown to match.
__global__ void columns(float *out, const float *in) {
  __shared__ float s[32 * 32];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  s[ty * 32 + tx] = in[ty * 32 + tx];
  __syncthreads();
  out[ty * 32 + tx] = s[tx * 32 + ty];
}
// CHECK: index-rewrite.cu:[[# @LINE-2]]:23: warning: 32-way bank conflict reading 's'
// CHECK-NEXT: {{^ *[0-9]+ [|]}}
// CHECK-NEXT: {{^ *[|]}}
// CHECK-NEXT: index-rewrite.cu:[[# @LINE-5]]:23: note: byte offset in 's' = (threadIdx.x * 32 + threadIdx.y) * 4: lanes 0-31 hit bank 0 at words 0, 32, 64, ..., 992 (block 32x8x1 from the launch at {{.*}})
// CHECK-NEXT: index-rewrite.cu:[[# @LINE-10]]:20: note: fix-it: skew the index of 's' by 1 word every 128 bytes: 's[tx * 32 + ty]' -> 's[tx * 32 + ty + (tx * 32 + ty) / 32]' in its 2 accesses, 's[32 * 32]' -> 's[32 * 32 + 32 * 32 / 32]' (verified for the block shapes considered: this access conflict-free ({{[0-9]+}} wavefront{{s?}} instead of {{[0-9]+}}), no access to 's' worse)
// FIXED: __shared__ float s[32 * 32 + 32 * 32 / 32];
// FIXED: s[ty * 32 + tx + (ty * 32 + tx) / 32] = in[ty * 32 + tx];
// FIXED: out[ty * 32 + tx] = s[tx * 32 + ty + (tx * 32 + ty) / 32];

// The interleaved reduction over a dynamic buffer: XOR-swizzled within each
// 128 bytes (no memory added; the buffer must be whole 128-byte segments).
// The constant index 0 stays as it is.
__global__ void interleaved(int *g) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    g[blockIdx.x] = sdata[0];
}
// CHECK: index-rewrite.cu:[[# @LINE-6]]:7: warning: up to 8-way bank conflict reading 'sdata'
// CHECK: index-rewrite.cu:[[# @LINE-14]]:25: note: fix-it: XOR-swizzle the 4-byte chunks of 'sdata' within each 128 bytes: 'sdata[index]' -> 'sdata[index ^ (index / 32 % 32)]' in its 4 accesses (verified for the block shapes considered: this access conflict-free ({{[0-9]+}} wavefront{{s?}} instead of {{[0-9]+}}), no access to 'sdata' worse; the buffer must hold whole 128-byte segments)
// CHECK: index-rewrite.cu:[[# @LINE-8]]:23: warning: up to 8-way bank conflict reading 'sdata'
// The same fix-it (it rewrites every access): said once.
// CHECK: index-rewrite.cu:[[# @LINE-17]]:25: note: fix-it: the same as at line [[# @LINE-10]]{{$}}
// FIXED: sdata[tid ^ (tid / 32 % 32)] = g[tid];
// FIXED: sdata[index ^ (index / 32 % 32)] += sdata[(index + s) ^ ((index + s) / 32 % 32)];
// FIXED: g[blockIdx.x] = sdata[0];

// Both accesses go through a pointer: the rewrite is verified, but the
// subscripts do not name the array, so no fix-it is offered.
__global__ void throughPointer(float *out) {
  __shared__ float t[32 * 32];
  float *p = t;
  p[threadIdx.x * 32] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = p[threadIdx.x * 32 + 1];
}
// CHECK: index-rewrite.cu:[[# @LINE-4]]:3: warning: 32-way bank conflict writing 't'
// CHECK: index-rewrite.cu:[[# @LINE-7]]:20: note: no fix-it: skew the index of 't' by 1 word every 128 bytes (verified for the block shapes considered: this access better, no access to 't' worse), but the access at {{.*}}index-rewrite.cu:[[# @LINE-5]]:3 ('p[threadIdx.x * 32]') cannot be rewritten: it does not index 't' by name
// CHECK: index-rewrite.cu:[[# @LINE-4]]:22: warning: 32-way bank conflict reading 't'
// YAML-DAG: ReplacementText: 'tx * 32 + ty + (tx * 32 + ty) / 32'
// YAML-DAG: ReplacementText: '32 * 32 + 32 * 32 / 32'
// YAML-NOT: ReplacementText: 'threadIdx.x * 32
// FIXED: p[threadIdx.x * 32] = 1.0f;

// AFTER-NOT: warning: {{.*}} 's'
// AFTER-NOT: warning: {{.*}} 'sdata'
// AFTER: warning: 32-way bank conflict writing 't'
// AFTER: warning: 32-way bank conflict reading 't'
// AFTER-NOT: warning:

void launch(float *o, const float *i, int *g) {
  columns<<<1, dim3(32, 8)>>>(o, i);
  interleaved<<<1, 256, 256 * sizeof(int)>>>(g);
  throughPointer<<<1, 32>>>(o);
}
