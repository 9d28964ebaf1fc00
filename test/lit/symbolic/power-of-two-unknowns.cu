// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A run-time value that meets the thread index non-linearly has few values
// worth asking about when its use pins them down:
// - a shift amount (1 << log2N, t << shift) is 0 to 31 (any other value is
//   undefined behaviour): every value is analysed, exhaustively;
// - a mask length (t & (size - 1)) is meant to be a power of two (the only
//   values for which the mask is t mod size): every power of two is
//   analysed, and the assumption is stated.
// Values for which some lane would index outside a sized array are not ones
// a correct program runs with; they are left out, and said so.

// A radix-4 butterfly (the fast Walsh transform's shape): lanes in groups of
// 'stride' are 4 * stride words apart, 4-way once stride < 32.
// cuda-bank-lint: block-dim(256)
__global__ void radix4(float *out, int log2N) {
  extern __shared__ float buf[];
  const int N = 1 << log2N;
  const int t = threadIdx.x;
  for (int stride = N >> 2; stride > 0; stride >>= 2) {
    int lo = t & (stride - 1);
    int i0 = ((t - lo) << 2) + lo;
    __syncthreads();
    buf[i0 + stride] = buf[i0];
  }
}
// CHECK: power-of-two-unknowns.cu:[[# @LINE-3]]:5: remark: possible bank conflict writing 'buf': 4-way when 'log2N' is 2 to 30
// CHECK: power-of-two-unknowns.cu:[[# @LINE-4]]:24: remark: possible bank conflict reading 'buf': 4-way when 'log2N' is 2 to 30; it never runs when 'log2N' is 0, 1 or 31 ('log2N' is a shift amount in '1 << log2N': 0 to 31 were analysed) (worst: 4 wavefronts, ideal 1, at 'log2N' = 2, stride=1)

// A thread index shifted by a parameter: 2^shift words apart.
// cuda-bank-lint: block-dim(32)
__global__ void shifted(const int *in, int shift) {
  __shared__ int s[1024];
  s[threadIdx.x << shift] = in[threadIdx.x];
}
// CHECK: power-of-two-unknowns.cu:[[# @LINE-2]]:3: remark: possible bank conflict writing 's': 32-way when 'shift' is 5, 16-way when 'shift' is 4, 8-way when 'shift' is 3, 4-way when 'shift' is 2, 2-way when 'shift' is 1, conflict-free when 'shift' is 0 ('shift' is a shift amount in 'threadIdx.x << shift': 0 to 31 were analysed; when it is 6 to 31 some lane would access outside 's')
// JSON: "case": "'shift' = 0",
// JSON-NEXT: "degree": 1,
// JSON: "case": "'shift' = 5",
// JSON-NEXT: "degree": 32,
// JSON: "expression": "s[threadIdx.x << shift]",
// JSON: "status": "bound",

// A naive inclusive scan's layout (2 * size per segment, the second half
// holding the data): segments shorter than a warp leave every other word
// of the warp's span unused, 2-way.
// cuda-bank-lint: block-dim(256)
__global__ void segmentedScan(unsigned *io, unsigned size) {
  __shared__ unsigned sdata[512];
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  sdata[pos] = 0;
  pos += size;
  sdata[pos] = io[threadIdx.x];
}
// CHECK: power-of-two-unknowns.cu:[[# @LINE-4]]:3: remark: possible bank conflict writing 'sdata': 2-way when 'size' is 1 to 16, conflict-free when 'size' is 32 to 1073741824 ('size' is assumed a power of two: it is a mask length in 'size - 1 & threadIdx.x')
// CHECK: power-of-two-unknowns.cu:[[# @LINE-3]]:3: remark: possible bank conflict writing 'sdata': 2-way when 'size' is 1 to 16, conflict-free when 'size' is 32 to 256 ('size' is assumed a power of two: it is a mask length in 'size - 1 & threadIdx.x'; when it is 512 to 1073741824 some lane would access outside 'sdata')

// Blocks of 'size' consecutive words: conflict-free for every power of two
// (silent; the record says why).
__global__ void blocked(unsigned size) {
  __shared__ unsigned s[1024];
  unsigned t = threadIdx.x;
  s[(t & (size - 1)) + size * (t / size)] = 0;
}
// JSON: "expression": "s[(t & (size - 1)) + size * (t / size)]",
// JSON: "reason": "conflict-free for every value of 'size' ('size' is assumed a power of two: it is a mask length in 'size - 1 & threadIdx.x')",
// JSON: "status": "exact",

// A bitonic merge whose stride starts at a run-time value: the counter is a
// mask length, so a power of two; the swap runs under a comparison of loaded
// keys, taken as passed by every lane (the worst case).
// cuda-bank-lint: block-dim(512)
__global__ void finalMerge(unsigned n) {
  __shared__ unsigned key[1024];
  for (unsigned stride = n / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned a = key[pos], b = key[pos + stride];
    if (a > b)
      key[pos + stride] = a;
  }
}
// The compiler halves at the top of the body: its counter is stride before
// the update, twice the stride the body uses.
// CHECK: power-of-two-unknowns.cu:[[# @LINE-7]]:18: remark: possible bank conflict reading 'key': 2-way when 'stride before its update' is 2 to 32, conflict-free when 'stride before its update' is 1 or 64 to 1073741824 ('stride before its update' is assumed a power of two
// CHECK: power-of-two-unknowns.cu:[[# @LINE-8]]:32: remark: possible bank conflict reading 'key': 2-way when 'stride before its update' is 2 to 32, conflict-free when 'stride before its update' is 1 or 64 to 1024 ('stride before its update' is assumed a power of two: it is a mask length in '(stride before its update >> 1) - 1 & threadIdx.x'; when it is 2048 to 1073741824 some lane would access outside 'key')
// CHECK: power-of-two-unknowns.cu:[[# @LINE-7]]:7: remark: possible bank conflict writing 'key': if every lane passes the guards on loaded data, 2-way when 'stride before its update' is 2 to 32, conflict-free when 'stride before its update' is 1 or 64 to 1024
