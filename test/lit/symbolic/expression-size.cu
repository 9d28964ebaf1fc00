// RUN: %cbl --block-dim=32 %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --block-dim=32 --format=json %s | %FileCheck %s --check-prefix=JSON
// A conditional whose arms are both variables is an lvalue: reading it reads
// the chosen variable, not memory. An expression that doubles at every step
// (a reduction or sorting network unrolled into nested selects) is tracked up
// to a size bound, then becomes an unknown with its reason, so the analysis
// stays fast however many steps there are.

__global__ void lvalueConditional(int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x, odd = 33, even = 32;
  // Even lanes are 32 words apart (bank 0), odd lanes 33 (distinct banks).
  s[t * ((t & 1) ? odd : even)] = 0;
  // CHECK: expression-size.cu:[[@LINE-1]]:3: warning: 16-way bank conflict writing 's'
  int lo = t < 16 ? t : even; // lanes 16-31 read word 32, in lane 0's bank
  out[t] = s[lo];
  // CHECK: expression-size.cu:[[@LINE-1]]:12: warning: 2-way bank conflict reading 's'
}

#define STEP v = (v < n ? v : n) + (v < m ? m : v);
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP
__global__ void doubling(int *out, int n, int m) {
  __shared__ int s[4096];
  int v = threadIdx.x / 32;
  STEP8 STEP8 STEP8 STEP8 STEP8
  s[threadIdx.x + (v & 1)] = 1;
  s[threadIdx.x * 2] = v;
  // CHECK: expression-size.cu:[[@LINE-1]]:3: warning: 2-way bank conflict writing 's'
}

// JSON: "expression": "s[t * ((t & 1) ? odd : even)]"
// JSON-NEXT: "file"
// JSON: "status": "exact"
// JSON: "expression": "s[lo]"
// JSON: "status": "exact"
// JSON: "byte_offset": "({{.*}}(a value too large to track #{{[0-9a-f]+}})
// JSON: "expression": "s[threadIdx.x + (v & 1)]"
// JSON: "reason": "an expression of more than 4096 operations (e.g. a sorting network unrolled into nested selects) is not tracked
// JSON-NEXT: "status": "unknown"
