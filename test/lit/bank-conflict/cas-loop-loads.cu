// A float atomicAdd on shared memory is a compare-and-swap loop: each round
// the lanes left load their word (LDS, counted by the hardware as loads of
// the same line), then the lowest lane of each bank tries its CAS. The
// record carries the loop's loads beside the atomic's own wavefronts: for
// the worst warp (loop_load_*) and summed over the block (block_loop_load_*),
// so a user or a profile comparison sees both instructions of the line.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/cas-loop-loads.py | %FileCheck %s

__global__ void casLoops(float *out) {
  __shared__ float fs[64 * 32];
  int t = threadIdx.x;
  // One round per warp: one conflict-free load each.
  atomicAdd(&fs[t], 1.0f);
  // CHECK: [[# @LINE-1]] atom iterations=1 load=1/1 block-load=2/2 status=exact
  // 32 lanes in bank 0, distinct words: 32 rounds, the loads of the lanes
  // left cost 32 + 31 + ... + 1 = 528 wavefronts (ideal: one per round).
  atomicAdd(&fs[t * 32], 1.0f);
  // CHECK: [[# @LINE-1]] atom iterations=32 load=528/32 block-load=1056/64 status=exact
  // Eight lanes share each word: one success per round and word, 8 rounds,
  // every load a broadcast of at most 4 words of distinct banks.
  atomicAdd(&fs[t / 8], 1.0f);
  // CHECK: [[# @LINE-1]] atom iterations=8 load=8/8 block-load=16/16 status=exact
  out[t] = fs[t];
}
int main() { casLoops<<<1, 64>>>(0); }
