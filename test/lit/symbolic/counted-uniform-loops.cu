// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// A loop the same for every lane whose counter the access does not read is
// not run (grid-stride-loops.cu): one iteration stands for all. Where its
// trip count is known at the enclosing loops' values (j < i below), the
// block sums count it that many times, and where it does not run at all
// (i = 0) the access is not executed there: neither a case nor a cost.
//
// The triangular update of an LU factorisation (HeCBench lud's diagonal
// block): the store of row tx, column i runs i times per i, by lanes tx > i;
// lanes 32 words apart pairwise, so ceil((15 - i) / 2)-way. Measured on an
// H100 (Nsight Compute, 16-thread blocks): 308 wavefronts for 105 ideal per
// block, what the weighted sums give (counted once per i: 56 for 14).
// LLVM reads s[tx * 16 + i] once before the j loop (LICM) and that load has
// no debug location: it takes the place of the loop's accesses to the same
// address (line 28, where nvcc's load is), not the kernel's first line.
// cuda-bank-lint: block-dim(16)
__global__ void triangular(float *m) {
  __shared__ float s[16 * 16];
  int tx = threadIdx.x;
  for (int i = 0; i < 16; i++)
    s[i * 16 + tx] = m[i * 16 + tx];
  __syncthreads();
  for (int i = 0; i < 15; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++)
        s[tx * 16 + i] -= s[tx * 16 + j] * s[j * 16 + i];
    }
    __syncthreads();
  }
  for (int i = 0; i < 16; i++)
    m[i * 16 + tx] = s[i * 16 + tx];
}
// CHECK-NOT: triangular:19:
// CHECK: triangular:28:9 ld 4 exact 7-way 7/1
// CHECK-NEXT: triangular:28:9 st 4 exact 7-way 7/1
// CHECK-NEXT: triangular:28:27 ld 4 exact 7-way 7/1
// JSON: "block_ideal": 105,
// JSON-NEXT: "block_iterations": 1,
// JSON-NEXT: "block_wavefronts": 308,
// JSON: "line": 28,
// JSON-NEXT: "loop_flags"
// JSON-NEXT: "never_executed": false,
// JSON-NEXT: "op": "st",
// TEXT: counted-uniform-loops.cu:28:9: warning: up to 7-way bank conflict reading 's': 7 lanes of warp 0 read 7 distinct words of bank 1 at i=1 (7 wavefronts, ideal 1)
