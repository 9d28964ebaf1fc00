// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not="remark: possible"
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
// The compiler unrolls the loop 8 times: each copy runs 1,250 iterations
// per warp (2 x 1,250 x 4 = 10,000 wavefronts per block, 80,000 in all).
// CHECK: cycling-loops.cu:[[# @LINE-7]]:5: warning: 4-way bank conflict reading 's': 4 lanes of warp 0 read 4 distinct words of bank 0 (4 wavefronts, ideal 1) in each of the 16 distinct iterations (the other 2468 warp iterations repeat one of them)
// CHECK: cycling-loops.cu:[[# @LINE-8]]:5: note: also writing: 4-way (4 wavefronts, ideal 1){{$}}
// JSON: "block_ideal": 2500,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 10000,
// JSON: "expression": "s[index]",
// JSON: "repeated_iterations": 2468,
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
// The compiler unrolls the 16 iterations: a record each, 2 warps x 2.
// CHECK: cycling-loops.cu:[[# @LINE-6]]:12: warning: 2-way bank conflict reading 's_Hist' through 's_Base': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// JSON: "block_ideal": 2,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 4,
// JSON: "expression": "s_Base[pos]",
// JSON: "status": "exact",

// A ring index whose start depends on a kernel parameter: no pass can see
// 'offset' in the address, only in where the lane's counter starts. Small
// values are tried with the loop run for each; at 'offset' = 32 every lane
// takes a wavefront of its own, the most any access can cost, so that is the
// worst case over every value: a possible conflict, stated with the values.
// cuda-bank-lint: block-dim(32)
__global__ void ringFromParameter(int offset) {
  __shared__ int s[4096];
  unsigned index = threadIdx.x * offset;
  for (int i = 0; i < 10000; i++) {
    s[index] += i;
    index += 32;
    index %= 4096;
  }
}
// CHECK: cycling-loops.cu:[[# @LINE-5]]:5: remark: possible bank conflict reading 's': 32-way when 'offset' is 32, 16-way when 'offset' is 16, 8-way when 'offset' is 8 or 24, 4-way when 'offset' is 4, 12, 20 or 28, 2-way when 'offset' is 2, 6, 10, 14, 18, 22, 26 or 30, conflict-free when 'offset' is 0, 1, 3, 5, {{.*}} (0 to 32 were analysed; at 32 every lane takes a wavefront of its own, the most any access can cost, so no other value is worse) (worst: 32 wavefronts, ideal 1, at 'offset' = 32, iteration 0 of the loop at line [[# @LINE-6]])
// CHECK: cycling-loops.cu:[[# @LINE-6]]:5: note: also writing: a possible conflict (32-way when 'offset' is 32,
// JSON: "expression": "s[index]",
// JSON: "status": "bound",

// Where the analysis stops at a loop, the reason says which part of the loop
// is not known. Here a lane's counter is updated only while the lane passes
// a test against a run-time value (a wavelet level loop): the lanes' values
// depend on 'bdim', and no value of it is tried (it does not start a lane's
// counter).
// cuda-bank-lint: block-dim(256)
__global__ void levels(float *out, unsigned levels, int bdim) {
  extern __shared__ float data[];
  unsigned active = bdim >> 1, first = threadIdx.x * 2;
  for (unsigned i = 1; i < levels; ++i) {
    if (threadIdx.x < active) {
      data[first] += data[first + 1];
      active >>= 1;
      first <<= 1;
    }
    __syncthreads();
  }
}
// JSON: "expression": "data[first]",
// JSON: "reason": "'first' changes in the loop at line [[# @LINE-10]] (the loops were not run: the start of 'active' in the loop at line [[# @LINE-10]] is not known (it depends on 'bdim >> 1'))",
// JSON: "status": "unknown",

// A loop that never ends once started (k <<= 1 from 0): the compiler keeps
// k at 0 (the barrier keeps the loop: without a side effect an endless loop
// is undefined, and the compiler drops it), so every iteration reads
// s[threadIdx.x ^ 1]: exact per iteration, the number of iterations not
// counted (block_iterations 0).
// cuda-bank-lint: block-dim(32)
__global__ void neverEnds(int *out) {
  __shared__ int s[1024];
  for (unsigned k = 0; k < 8; k <<= 1) {
    s[(threadIdx.x * (k + 1)) ^ 1] += 1;
    __syncthreads();
  }
}
// JSON: "block_iterations": 0,
// JSON-NEXT: "block_wavefronts": 1,
// JSON: "expression": "s[(threadIdx.x * (k + 1)) ^ 1]",
// JSON: "status": "exact",
