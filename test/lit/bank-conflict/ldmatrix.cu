// RUN: %cbl --explain --block-dim=32 %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --block-dim=32 --format=json %s | %FileCheck %s --check-prefix=JSON
// ldmatrix / stmatrix (m8n8 .b16): each lane of the first 8 (.x1), 16 (.x2)
// or 32 (.x4) gives the address of one 16-byte row; the hardware serves them
// like a 16-byte load or store of those rows in 8-lane phases, never merged
// (measured: test/data/h100-matrix.csv). Rows 128 bytes apart all start in
// bank 0: 8-way; the classic XOR swizzle of the 16-byte chunk by the row
// makes every phase conflict-free. cp.async is recognised, not bank-modelled.
#include <cuda_fp16.h>

#define SMEM(p) static_cast<unsigned>(__cvta_generic_to_shared(p))

__global__ void plain(half *out) {
  __shared__ __align__(128) half tile[64][64]; // 128-byte rows
  int lane = threadIdx.x % 32;
  unsigned r0, r1, r2, r3;
  unsigned a = SMEM(&tile[lane % 16][(lane / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  // CHECK: ldmatrix.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in 'ldmatrix.x4' reading 'tile': 8 lanes of warp 0 read 8 distinct words of bank 0 in phase 0 of 4 (32 wavefronts, ideal 4)
  // CHECK: note: an XOR swizzle of the 16-byte chunks of 'tile' by the row, element [r][c] stored at [r][((c / 8) ^ (r % 8)) * 8 + c % 8] in every access, makes every access to 'tile' conflict-free
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  // CHECK: ldmatrix.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in 'ldmatrix.x4.trans' reading 'tile'
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(r0), "r"(r1));
  // CHECK: ldmatrix.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in 'stmatrix.x2' writing 'tile': {{.*}} (16 wavefronts, ideal 2)
  out[threadIdx.x] = tile[0][threadIdx.x];
}

__global__ void swizzled(unsigned *out) {
  __shared__ __align__(128) half tile[64][64];
  int lane = threadIdx.x % 32;
  int row = lane % 16, chunk = lane / 16;
  unsigned r0, r1, r2, r3;
  unsigned a = SMEM(&tile[row][((chunk ^ (row % 8)) * 8)]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  // Only lanes 0-7 give addresses for .x1: rows 0-7 of one chunk column.
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

__global__ void copies(const int4 *in, int *out) {
  __shared__ __align__(16) int4 buf[32];
  unsigned a = SMEM(&buf[threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(in + threadIdx.x));
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// JSON: "instruction": "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 32,
// JSON: "function": "swizzled",
// JSON: "instruction": "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 4,
// JSON: "active_mask": "0x000000ff",
// JSON: "instruction": "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON: "reason": "cp.async is not bank-modelled: {{.*}}",
// JSON-NEXT: "status": "unsupported",

// RUN: %cbl --block-dim=32 --format=json %s | %FileCheck %s --check-prefix=BULK
__global__ void bulk(const int4 *in) {
  __shared__ __align__(128) int4 buf[256];
  __shared__ __align__(8) unsigned long long mbar;
  unsigned d = SMEM(&buf[0]), b = SMEM(&mbar);
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];"
                 ::"r"(d), "l"(in), "r"(b) : "memory");
}
// BULK: "reason": "cp.async.bulk is one bulk transfer (TMA), not bank-modelled: on the H100 the shared-memory pipe counts no wavefront for it, whatever its size and offset (measured, docs/bank-model.md)",
// BULK-NEXT: "status": "unsupported",
