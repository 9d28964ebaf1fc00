// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN

// An XOR swizzle of the column is conflict-free for the column read; its
// unswizzled twin is 32-way.
__global__ void swizzle(float *o) {
  __shared__ float tile[32][32];
  unsigned r = threadIdx.y, c = threadIdx.x;
  tile[r][c ^ r] = o[c];
  __syncthreads();
  o[c] = tile[c][r ^ c];
  o[c] += tile[c][r];
}
// EXPLAIN: swizzle-scan-bitonic.cu:[[# @LINE-5]]:3: remark: store of 4 bytes from 'tile' in 'swizzle' (tile[r][c ^ r]): conflict-free, 1 wavefront (ideal 1)
// EXPLAIN: swizzle-scan-bitonic.cu:[[# @LINE-4]]:10: remark: load of 4 bytes from 'tile' in 'swizzle' (tile[c][r ^ c]): conflict-free, 1 wavefront (ideal 1)
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-4]]:11: warning: 32-way bank conflict reading 'tile': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1)

// A Blelloch scan whose CONFLICT_FREE_OFFSET was written for 16 banks
// (GPU Gems 3, ch. 39): on 32 banks the first up-sweep steps keep a 2-way
// conflict. offset is a second loop counter (offset *= 2).
#define NUM_BANKS 16
#define LOG_NUM_BANKS 4
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
__global__ void prescan(float *g_odata, float *g_idata, int n) {
  __shared__ float temp[2 * 256 + 64];
  int thid = threadIdx.x;
  int offset = 1;
  int ai = thid;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  temp[ai + bankOffsetA] = g_idata[ai];
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      ai += CONFLICT_FREE_OFFSET(ai);
      bi += CONFLICT_FREE_OFFSET(bi);
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
}
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-13]]:3: warning: 2-way bank conflict writing 'temp': 2 lanes of warp 0 write 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-6]]:7: warning: 2-way bank conflict reading 'temp': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: note: also writing: 2-way
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-8]]:19: warning: 2-way bank conflict reading 'temp'

// Bitonic sort: pos = 2*tid - (tid & (stride - 1)). Two lanes per bank while
// stride is below a warp; from stride 32 on, a warp's positions are
// consecutive and conflict-free. The compiler unrolls the loops: the worst
// copy is reported.
__global__ void bitonic(unsigned *keys) {
  __shared__ unsigned s[1024];
  unsigned tid = threadIdx.x;
  for (unsigned size = 2; size <= 1024; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * tid - (tid & (stride - 1));
      unsigned a = s[pos], b = s[pos + stride];
      if (a > b) { s[pos] = b; s[pos + stride] = a; }
    }
}
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-4]]:20: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-5]]:32: warning: 2-way bank conflict reading 's'
// The swap runs where the loaded keys say: which lanes do is not known, so
// the worst case (every lane swaps) is a possible conflict, at remark level.
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-7]]:20: remark: possible bank conflict writing 's': 2-way if every lane passes 's[pos] > s[pos + stride]'
// CHECK: note: which threads run it depends on per-thread values that are not known statically ('s[pos] > s[pos + stride]'); the cost shown is the worst case, when every lane passes
// CHECK: swizzle-scan-bitonic.cu:[[# @LINE-9]]:32: remark: possible bank conflict writing 's': 2-way if every lane passes
// EXPLAIN: swizzle-scan-bitonic.cu:[[# @LINE-10]]:20: remark: store of 4 bytes from 's' in 'bitonic' (s[pos]): at most 2-way bank conflict, 2 wavefronts (ideal 1) in warp 0; which threads run it depends on per-thread values that are not known statically

void launch(float *o, unsigned *k) {
  swizzle<<<1, dim3(32, 32)>>>(o);
  prescan<<<1, 256>>>(o, o, 512);
  bitonic<<<1, 512>>>(k);
}
