// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Loops longer than the enumeration limit (1,024 distinct iterations) stay
// exact when the counters the address depends on cycle: an iteration whose
// active lanes and those counters repeat an earlier one costs the same, so
// it is counted in the block sums without being evaluated again. With a
// condition the same for every lane, the remaining iterations follow from
// the period and one lane's trip count.

// A ring index over 4,096 words, 10,000 times: lanes 4 words apart, 4-way in
// every iteration; 2 warps x 10,000 iterations x 4 wavefronts per block.
// cuda-bank-lint: block-dim(64)
__global__ void ring(int *out) {
  __shared__ int s[4096];
  unsigned index = threadIdx.x * 4;
  for (int i = 0; i < 10000; i++) {
    s[index] += i;
    index += 32;
    index %= 4096;
  }
}
// CHECK: cycling-loops.cu:[[# @LINE-5]]:5: warning: 4-way bank conflict reading 's': 4 lanes of warp 0 read 4 distinct words of bank 0 (4 wavefronts, ideal 1) in each of the 128 distinct iterations (the other 19744 warp iterations repeat one of them)
// CHECK: cycling-loops.cu:[[# @LINE-6]]:5: warning: 4-way bank conflict writing 's'
// JSON: "block_ideal": 20000,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 80000,
// JSON: "expression": "s[index]",
// JSON: "repeated_iterations": 19744,
// JSON: "status": "exact",

// Odd lanes run one iteration more (a condition that differs between
// lanes): no period to skip ahead by, but repeated states are still counted
// without evaluation. Per warp: 2,000 conflict-free iterations, then one
// with the 16 odd lanes.
// cuda-bank-lint: block-dim(32)
__global__ void ragged(int *out) {
  __shared__ int s[64];
  unsigned j = threadIdx.x;
  for (int i = 0; i < 2000 + int(threadIdx.x & 1); i++) {
    s[j] += i;
    j = (j + 32) % 64;
  }
}
// JSON: "block_ideal": 2001,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 2001,
// JSON: "expression": "s[j]",
// JSON: "repeated_iterations": 1998,
// JSON: "status": "exact",

// A running sum of loaded values is loop-carried too, but nothing in the
// address depends on it: the loop is still run, and the sum is not
// (histogram64's merge of per-thread byte counters). Lanes 0 and 16 start
// 1,024 bytes apart, in bank 0: 2-way in each of the 16 iterations; 2 warps
// x 16 iterations x 2 wavefronts per block.
// cuda-bank-lint: block-dim(64)
__global__ void byteCounters(unsigned *out) {
  __shared__ unsigned char s_Hist[64 * 64];
  unsigned char *s_Base = s_Hist + threadIdx.x * 64;
  unsigned sum = 0;
  unsigned pos = 4 * (threadIdx.x & 15);
  for (unsigned i = 0; i < 16; i++) {
    sum += s_Base[pos];
    pos = (pos + 4) & 63;
  }
  out[threadIdx.x] = sum;
}
// CHECK: cycling-loops.cu:[[# @LINE-5]]:12: warning: 2-way bank conflict reading 's_Hist': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1) in each of the 16 iterations
// JSON: "block_ideal": 32,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 64,
// JSON: "expression": "s_Base[pos]",
// JSON: "status": "exact",
