// RUN: %cbl --format=json %s | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=SUMMARY
// A merge-path step on data-dependent indices, repeated 16 times (a
// segmented sort unrolls it so): each branch on loaded data doubles what the
// indices could be. The analysis must stay fast (it took 105 s and 2.2 GB at
// 10 steps, and did not finish at 16, issue #17): the indices the loads cannot
// follow become unknowns with their reason, the first ones stay exact.
#define STEP(i)                                                                \
  p = (sb >= rc) || ((sa < lc) && (k0 <= k1));                                 \
  if (p) { ++sa; k0 = s[sa]; } else { ++sb; k1 = s[sb]; }                      \
  out[threadIdx.x * 16 + i] = p ? k0 : k1;
#define STEP4(i) STEP(i) STEP(i + 1) STEP(i + 2) STEP(i + 3)

__global__ void mergePath(int *out, const int *in, int lc, int rc) {
  __shared__ int s[512];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x + 256] = in[threadIdx.x + 256];
  __syncthreads();
  int sa = threadIdx.x, sb = 256 + threadIdx.x;
  int k0 = s[sa], k1 = s[sb];
  bool p;
  STEP4(0) STEP4(4) STEP4(8) STEP4(12)
}
int main() { int *o, *i; mergePath<<<1, 256>>>(o, i, 256, 256); }

// CHECK: "expression": "s[threadIdx.x]"
// CHECK: "status": "exact"
// CHECK: "expression": "s[sa]"
// CHECK: "reason": "an expression of more than 4096 operations (e.g. a sorting network unrolled into nested selects) is not tracked
// CHECK-NEXT: "status": "unknown"
// SUMMARY: 1 file analysed, {{[0-9]+}} shared accesses ({{[0-9]+}} exact, {{[0-9]+}} unknown), 0 warnings, 0 errors
