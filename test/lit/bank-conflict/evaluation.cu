// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Index evaluation with C++ semantics, the worst of every warp, unknowns that
// are reported with a reason and never warned, and block shapes from
// __launch_bounds__ or assumed.

__global__ void __launch_bounds__(64) bounded(float *o) {
  __shared__ float s[64 * 4];
  unsigned t = threadIdx.x;
  o[t] = s[t * 32 % 64 + t / 2];
}
// CHECK: evaluation.cu:[[# @LINE-2]]:10: warning: 2-way bank conflict reading 's': 2 lanes of warp 0 read 2 distinct words of bank 0 (2 wavefronts, ideal 1)
// CHECK: note: assuming block 64x1x1 from __launch_bounds__(64)

__global__ void noLaunch(float *o, int stride) {
  __shared__ float s[1024];
  __shared__ int idx[32];
  unsigned t = threadIdx.x;
  int a = t, b = 1, c = 3;
  o[t] = s[a * 32 + b ^ c];     // (a*32 + b) ^ c: bank 2 for every lane
  o[t] += s[t * stride];        // depends on 'stride' non-uniformly
  o[t] += s[idx[t]];            // data-dependent
  for (int i = t; i < 1024; i += 32)
    o[i] = s[i];                // block-stride loop: enumerated per lane
  o[t] += s[(t / 32) * t % 1024]; // stride grows with the warp index
}
// CHECK: evaluation.cu:[[# @LINE-7]]:10: warning: 32-way bank conflict reading 's': 32 lanes of warp 0 read 32 distinct words of bank 2 (32 wavefronts, ideal 1)
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'noLaunch' with a constant block size in this file or the others searched, no __launch_bounds__ and no --block-dim (pass --block-dim=X,Y,Z to pin it)
// The stride is a kernel parameter: the address is affine in it, so one
// period of its values decides every value; the conflict is "possible" and
// reported at remark severity with its condition (gcd(stride, 32)).
// CHECK: evaluation.cu:[[# @LINE-11]]:11: remark: possible bank conflict reading 's': 32-way when 'stride' is a multiple of 32; 16-way when 'stride' mod 32 is 16; 8-way when 'stride' mod 16 is 8; 4-way when 'stride' mod 8 is 4; 2-way when 'stride' mod 4 is 2, except 'stride' = 0 (conflict-free) (for 'stride' >= 0) (worst: 32 wavefronts, ideal 1, at 'stride' = 32)
// CHECK: evaluation.cu:[[# @LINE-8]]:11: warning: 16-way bank conflict reading 's': 16 lanes of warp 16 read 16 distinct words of bank 0 (16 wavefronts, ideal 1)
// EXPLAIN-DAG: evaluation.cu:[[# @LINE-13]]:11: remark: load of 4 bytes from 's' in 'noLaunch' (s[t * stride]): at most 32-way bank conflict, 32 wavefronts (ideal 1) in warp 0; the cost depends on the value of 'stride': 32-way when 'stride' is a multiple of 32
// EXPLAIN-DAG: evaluation.cu:[[# @LINE-13]]:11: remark: load of 4 bytes from 's' in 'noLaunch' (s[idx[t]]): data-dependent: value loaded from shared memory at a thread-dependent address
// EXPLAIN-DAG: evaluation.cu:[[# @LINE-14]]:13: remark: load of 4 bytes from 'idx' in 'noLaunch' (idx[t]): conflict-free
// EXPLAIN-DAG: evaluation.cu:[[# @LINE-13]]:12: remark: load of 4 bytes from 's' in 'noLaunch' (s[i]): conflict-free, 1 wavefront (ideal 1)

// JSON records carry the verdict, the reason and the block shape source.
// JSON: "accesses": [
// JSON: "block_dim": [
// JSON-NEXT: 64,
// JSON-NEXT: 1,
// JSON-NEXT: 1
// JSON-NEXT: ],
// JSON-NEXT: "block_dim_note": "from __launch_bounds__(64) at {{.*}}evaluation.cu:8 (1-D, the maximum; every width up to it where threadIdx.y or .z is read)",
// JSON-NEXT: "block_dim_source": "launch-bounds",
// JSON: "degree": 2,
// JSON: "function": "bounded",
// JSON: "op": "ld",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 2,
// JSON-NEXT: "width": 4,
// JSON: "block_dim": null,
// JSON-NEXT: "block_dim_note": "a 1-D block whose size is a multiple of 32 threads{{.*}}",
// JSON-NEXT: "block_dim_source": "assumed",
// JSON: "expression": "s[t * stride]",
// JSON: "reason": "the cost depends on the value of 'stride': {{.*}}",
// JSON-NEXT: "status": "bound",
// JSON: "expression": "s[idx[t]]",
// JSON: "status": "data-dependent",
// JSON: "mode": "prelude",
// JSON: "tool": "cuda-bank-lint",
