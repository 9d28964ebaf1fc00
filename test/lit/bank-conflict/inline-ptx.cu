// RUN: %cbl --block-dim=32 %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --block-dim=32 --format=json %s | %FileCheck %s --check-prefix=JSON
// Inline PTX ld/st on shared memory (any width, vector forms, volatile,
// semantics and scope, ::cta) is an LDS/STS of that width: costed by the
// measured load/store rules, the instruction named in the warning.

__global__ void ptx(unsigned *out) {
  __shared__ __align__(16) unsigned s[32 * 33];
  unsigned t = threadIdx.x, a, b, c, d;
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s));
  // 16 bytes per lane, lanes 64 bytes apart: the 8 lanes of a quarter-warp
  // use only banks 0-3 and 16-19, four lanes each: 4-way in every phase.
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(base + t * 64));
  // CHECK: inline-ptx.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 4-way bank conflict in 'ld.shared.v4.u32' reading 's': {{.*}} (16 wavefronts, ideal 4)
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(base + t * 4), "r"(a));
  asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=r"(b) : "r"(base + t * 128));
  // CHECK: inline-ptx.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict in 'ld.volatile.shared.f32' reading 's'
  asm volatile("st.relaxed.cta.shared::cta.u16 [%0], %1;" ::"r"(base + t * 2), "h"((unsigned short)c));
  // A generic pointer converted inside the asm (cvta.to.shared): the operand
  // points into 's', so the access is known.
  asm volatile("{ .reg .u64 p; cvta.to.shared.u64 p, %1; ld.shared.u32 %0, [p]; }"
               : "=r"(d) : "l"(&s[t * 32]));
  // CHECK: inline-ptx.cu:[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict in 'ld.shared.u32' reading 's'
  out[t] = a + b + c + d;
}

// JSON: "instruction": "ld.shared.v4.u32",
// JSON: "width": 16,
// JSON: "instruction": "st.shared.b32",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON-NEXT: "width": 4,
// JSON: "instruction": "st.relaxed.cta.shared::cta.u16",
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,
// JSON-NEXT: "width": 2,
