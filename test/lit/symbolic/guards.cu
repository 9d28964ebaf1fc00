// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// Guards decide which lanes take part; inactive lanes never conflict.

__global__ void guards(float *o, int n, int width) {
  __shared__ float s[64 * 32];
  const unsigned mask = 0x0000ffffu;
  unsigned lane = threadIdx.x % 32;
  if ((mask >> lane) & 1)
    o[lane] = s[lane * 32];          // 16 lanes of each warp: 16-way
  if (lane % 2 == 0)
    o[lane] += s[lane * 2];          // even lanes at stride 4 words: 2-way
  o[lane] += lane < 8 ? s[lane * 4] : 0.0f; // 8 lanes at stride 4: clean
  if (lane >= 4 && lane < 12)
    o[lane] += s[lane * 8];          // 8 lanes at stride 8: 2-way
  switch (lane / 8) {
  case 0: o[lane] += s[lane * 32]; break; // 8 lanes: 8-way
  default: break;
  }
  if (threadIdx.x >= n)
    return;                          // early exit decided by a uniform unknown
  o[lane] += s[lane * 16];           // at most 16-way (all 32 lanes present)
  unsigned x = blockIdx.x * 32 + lane;
  if (x < width)
    o[lane] += s[lane];              // clean for every width
}
// CHECK: guards.cu:10:15: warning: 16-way bank conflict reading 's': 16 lanes of warp 0 read 16 distinct words of bank 0 (16 wavefronts, ideal 1)
// CHECK: guards.cu:12:16: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// EXPLAIN: guards.cu:13:25: remark: load of 4 bytes from 's' in 'guards' (s[lane * 4]): conflict-free, 1 wavefront (ideal 1)
// CHECK: guards.cu:15:16: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: guards.cu:17:22: warning: 8-way bank conflict reading 's': 8 lanes of warp 0 read 8 distinct words of bank 0 (8 wavefronts, ideal 1)
// CHECK: guards.cu:22:14: warning: 16-way bank conflict reading 's': 16 lanes of warp 0 read 16 distinct words of bank 0 (16 wavefronts, ideal 1)
// A threshold (threadIdx.x >= n, x < width) splits the block at a boundary:
// exact for the warps whose lanes all pass, a boundary warp costs at most this.
// CHECK: note: the cost of the warps whose lanes all pass the conditions on 'n'; a warp at the boundary runs it with fewer lanes and costs at most this
// EXPLAIN: guards.cu:25:16: remark: load of 4 bytes from 's' in 'guards' (s[lane]): conflict-free, 1 wavefront (ideal 1) in warp 0

void launch(float *o, int a, int b) { guards<<<1, 64>>>(o, a, b); }
