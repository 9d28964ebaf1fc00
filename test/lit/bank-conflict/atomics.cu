// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Shared-memory atomics, costed by the rules measured on an H100
// (test/data/h100-atomics.csv): a native ATOMS serves one lane of a bank per
// wavefront, even lanes on one word (no broadcast); atomicCAS costs two
// wavefronts per lane of the busiest bank; atomicAdd on float/double is a
// compare-and-swap loop that serves one lane per bank per iteration.
#include <cuda_fp16.h>

__global__ void atomics(const int *in, int *out) {
  __shared__ int bins[256];
  __shared__ float fs[32 * 32];
  __shared__ unsigned long long wide[32 * 16];
  int t = threadIdx.x;
  atomicAdd(&bins[t], 1);       // consecutive words: conflict-free
  atomicAdd(&bins[0], 2);
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomicAdd' on 'bins': 32 lanes of warp 0 update bank 0 (atomics serve one lane of a bank at a time, even lanes on one word) (32 wavefronts, ideal 1)
  // Adding 1 with the result unused is ATOMS.POPC.INC: the lanes of one word
  // are served together (1 wavefront), distinct words of a bank are not.
  atomicAdd(&bins[0], 1);
  atomicAdd(&bins[(t % 2) * 32], 1);
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 2-way bank conflict in 'atomicAdd' on 'bins': 32 lanes of warp 0 increment 2 distinct words of bank 0 (an add of 1 whose result is unused, ATOMS.POPC.INC: lanes on one word are served together) (2 wavefronts, ideal 1)
  if (atomicAdd(&bins[0], 1) == 7) out[0] = 1; // result used: ATOMS.ADD, 32-way
  // CHECK: atomics.cu:[[@LINE-1]]:7: warning: 32-way bank conflict in 'atomicAdd' on 'bins'
  atomicSub(&bins[t / 2], 1);   // lanes in pairs on one word: 2-way (a load would broadcast)
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 2-way bank conflict in 'atomicSub' on 'bins'
  atomicAdd(&bins[in[t] & 255], 1); // a histogram: the address is data
  atomicCAS(&bins[t], 0, 1);        // conflict-free CAS: 2 wavefronts
  atomicCAS(&bins[(t % 16) * 32], 0, 1);
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomicCAS' on 'bins': 32 lanes of warp 0 update bank 0 {{.*}} (64 wavefronts, ideal 2)
  atomicAdd(&fs[t * 32], 1.0f);
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomicAdd' on 'fs': {{.*}}; it compiles to a compare-and-swap loop that runs 32 times, plus 528 wavefronts of loads (64 wavefronts, ideal 2)
  atomicAdd(&fs[t], 1.0f);          // one iteration
  atomicExch(&wide[t * 16], 1ull);  // ATOMS.EXCH.64, per half-warp
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 16-way bank conflict in 'atomicExch' on 'wide': 16 lanes of warp 0 update bank 0 {{.*}} in phase 0 of 2 (32 wavefronts, ideal 2)
  atomicMax(&wide[t], 1ull);        // a value-dependent CAS loop: unsupported, with the reason
  out[t] = bins[t];
}

// Inline PTX: red/atom on .shared with any semantics and scope, and a
// generic atom whose address operand is in shared memory.
__global__ void ptx(int *out) {
  __shared__ int s[32 * 32];
  unsigned t = threadIdx.x, v;
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&s[t * 32]));
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(1u));
  // CHECK: atomics.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict in 'red.shared.add.u32' on 's'
  asm volatile("atom.relaxed.cta.shared::cta.add.u32 %0, [%1], %2;" : "=r"(v) : "r"(a + 4 * 32 * 32 - 4 * 31 * t), "r"(1u));
  int *p = &s[t];
  asm volatile("atom.add.s32 %0, [%1], %2;" : "=r"(v) : "l"(p), "r"(1));
  out[t] = v;
}

// The kernel of issue 14: each lane's atomic hits a distinct word of bank 0.
__global__ void issueExample(float *out) {
  __shared__ __align__(16) unsigned short tile[64 * 64];
  int lane = threadIdx.x % 32;
  atomicAdd((int *)&tile[lane * 64], 1);
  // CHECK: atomics.cu:[[@LINE-1]]:3: warning: 32-way bank conflict in 'atomicAdd' on 'tile'
  out[threadIdx.x] = 0;
}

int main() {
  atomics<<<1, 32>>>(0, 0);
  ptx<<<1, 32>>>(0);
  issueExample<<<1, 32>>>(0);
}

// Keys are sorted: atomic_rule, ..., expression, ..., instruction, iterations,
// ..., loop_load_wavefronts, ..., reason, status, wavefronts.
// JSON: "atomic_rule": "popc-inc",
// JSON: "expression": "atomicAdd(&bins[t], 1)",
// JSON: "instruction": "atomicAdd",
// JSON-NEXT: "iterations": 1,
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON: "expression": "atomicAdd(&bins[in[t] & 255], 1)",
// JSON: "status": "data-dependent",
// JSON: "atomic_rule": "cas",
// JSON: "expression": "atomicCAS(&bins[t], 0, 1)",
// JSON: "ideal": 2,
// JSON: "wavefronts": 2,
// JSON: "atomic_rule": "cas-loop",
// JSON: "expression": "atomicAdd(&fs[t], 1.0f)",
// JSON: "iterations": 1,
// JSON: "loop_load_wavefronts": 1,
// JSON: "expression": "atomicMax(&wide[t], 1ull)",
// JSON: "instruction": "atomicMax",
// JSON: "reason": "shared-memory atomic 'atomicMax' on 8-byte values
// JSON-NEXT: "status": "unsupported",
// JSON: "instruction": "atom.relaxed.cta.shared::cta.add.u32",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON: "instruction": "atom.add.s32",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
