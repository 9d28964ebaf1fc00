// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// 64- and 128-bit accesses are served in half- and quarter-warp phases: read
// linearly they need 2 and 4 wavefronts with no conflict; at a stride of two
// elements each phase meets itself on the same banks.

__global__ void vectors(float4 *o) {
  __shared__ float2 s2[64];
  __shared__ float4 s4[64];
  unsigned t = threadIdx.x;
  float2 a = s2[t];
  float4 b = s4[t];
  float2 c = s2[2 * t];
  float4 d = s4[2 * t];
  s4[t] = make_float4(a.x, b.y, c.x, d.w);
}
// EXPLAIN-DAG: vectors.cu:11:14: remark: load of 8 bytes from 's2' in 'vectors' (s2[t]): conflict-free, 2 wavefronts (ideal 2)
// EXPLAIN-DAG: vectors.cu:12:14: remark: load of 16 bytes from 's4' in 'vectors' (s4[t]): conflict-free, 4 wavefronts (ideal 4)
// CHECK-DAG: vectors.cu:13:14: warning: 2-way bank conflict reading 's2': 2 lanes of warp 0 read 2 distinct words of bank 0 in phase 0 of 2 (4 wavefronts, ideal 2)
// CHECK-DAG: vectors.cu:14:14: warning: 2-way bank conflict reading 's4': 2 lanes of warp 0 read 2 distinct words of bank 0 in phase 0 of 4 (8 wavefronts, ideal 4)
// EXPLAIN-DAG: vectors.cu:15:3: remark: store of 16 bytes from 's4' in 'vectors' (s4[t]): conflict-free, 4 wavefronts (ideal 4)

// A struct member is a 4-byte access at its offset: s[i].y reads bytes 4..7
// of element i; a 12-byte struct moves as three 4-byte accesses.
struct Particle { float x, y, z; };
__global__ void members(float *o) {
  __shared__ Particle p[64];
  __shared__ float4 q[64];
  unsigned t = threadIdx.x;
  o[t] = p[t].y + q[t].y;
  Particle copy = p[t];
  o[t] += copy.z;
}
// Stride 12 bytes = 3 words: gcd(3, 32) = 1, clean. q[t].y: stride 4 words
// at offset 4, 4-way.
// CHECK-DAG: vectors.cu:[[# @LINE-6]]:19: warning: 4-way bank conflict reading 'q': 4 lanes of warp 0 read 4 distinct words of bank 1 (4 wavefronts, ideal 1)
// EXPLAIN-DAG: vectors.cu:[[# @LINE-7]]:10: remark: load of 4 bytes from 'p' in 'members' (p[t].y): conflict-free
// EXPLAIN-DAG: vectors.cu:[[# @LINE-7]]:19: remark: load of 4 bytes from 'p' in 'members' (p[t]): conflict-free

void launch(float4 *o, float *f) {
  vectors<<<1, 64>>>(o);
  members<<<1, 64>>>(f);
}
