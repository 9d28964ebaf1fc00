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
// (Counted loops: an endless `while (a)` without side effects is undefined,
// and the compiler removes it.)
#define L for (int q = 0; q < a; ++q)
#define W8 L L L L L L L L

__global__ void deep(float *o, int a) {
  __shared__ float s[1024];
  W8 W8 W8 W8 W8 W8 s[threadIdx.x] = 1;
  o[0] = s[threadIdx.x];
}
// The store, the same in every iteration, is hoisted out of the loops:
// CHECK: deep:{{[0-9]+}}:{{[0-9]+}} st 4 exact 1-way 1/1
// CHECK: deep:19:10 ld 4 exact 1-way 1/1

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
// BARRIER: nested-loops.cu:[[# @LINE-7]]:7: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'x' (the value of a loop's last iteration (loop at line [[# @LINE-14]])), which can differ between threads
// BARRIER-NOT: nested-loops.cu:[[# @LINE-6]]:7: warning
