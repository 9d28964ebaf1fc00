// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=BARRIER
// Loops nested 48 deep. Each loop finds which of its variables may differ
// between threads by walking its body without recording; a loop inside such
// a walk is not walked a second time (that doubled the work at every level:
// 20 levels took 6 s, 40 did not finish in 100 s, issue #17). What the
// second walk would leave behind is replayed: here 'x', assigned in an inner
// loop that some lanes leave early, differs between threads in the outer
// loop (a barrier under it may be divergent), while 'u', counted by the
// outer loop alone, stays uniform.
#define W8 while (a) while (a) while (a) while (a) while (a) while (a) while (a) while (a)

__global__ void deep(float *o, int a) {
  __shared__ float s[1024];
  W8 W8 W8 W8 W8 W8 s[threadIdx.x] = 1;
  o[0] = s[threadIdx.x];
}
// CHECK: deep:15:21 st 4 exact 1-way 1/1
// CHECK: deep:16:10 ld 4 exact 1-way 1/1

__global__ void carried(float *o, int n) {
  __shared__ float s[1024];
  int x = 0, u = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (threadIdx.x & 1)
        break;
      x = x + 32;
    }
    u = u + 1;
    if (x > 64)
      __syncthreads();
    if (u > 64)
      __syncthreads();
    s[threadIdx.x] = 1;
  }
  o[0] = s[threadIdx.x];
}
// BARRIER: nested-loops.cu:32:7: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'x' ('x' changes in the loop at line 25), which can differ between threads
// BARRIER-NOT: nested-loops.cu:34:7: warning
