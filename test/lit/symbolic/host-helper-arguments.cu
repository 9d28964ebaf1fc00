// Launch arguments computed by the program's own integer helpers: a host
// function of integers alone (parameters, locals, if, loops, return, calls
// of other such functions) is compiled and run once its arguments are
// known, here at the pinned block width. HeCBench's tridiagonal solvers
// compute their trip count so: iterations = log2(system_size / 2) with
// their own floor log2, and a block of system_size / 2 threads. What is not
// run: a recursive helper, one that reads a variable it does not own, one
// that calls something else; one that does not return within the step
// budget (200,000) at the width analysed gives no value: the trip count
// stays unknown there and the cost is isl's condition on the stride.
// RUN: %cbl --block-dim=128 --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --explain --block-dim=128 %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// RUN: %cbl --block-dim=128 --format=json %s | %FileCheck %s --check-prefix=ARGS

template <int Case>
__global__ void halve(float *out, int iterations) {
  extern __shared__ float s[];
  int stride = 1;
  for (int j = 0; j < iterations; j++) {
    stride <<= 1;
    if (threadIdx.x < blockDim.x / stride)
      s[threadIdx.x * stride] += 1.0f;
    __syncthreads();
  }
}
// 128 threads: iterations = 7 (a floor log2), strides 2 to 128.
// CHECK: halve<1>:[[# @LINE-5]]:7 ld 4 exact 4-way 4/1
// TEXT: host-helper-arguments.cu:[[# @LINE-6]]:7: warning: up to 4-way
// TEXT: note: per case: 2-way at j=0, stride=1, 4-way at j=1, stride=2, 4-way at j=2, stride=4 (16 lanes active), 4-way at j=3, stride=8 (8 lanes active), 4-way at j=4, stride=16 (4 lanes active), 2-way at j=5, stride=32 (2 lanes active), conflict-free at j=6, stride=64 (1 lane active){{$}}
// Helpers calling helpers, a for loop, a do-while and a break: 7 as well.
// CHECK: halve<2>:[[# @LINE-9]]:7 ld 4 exact 4-way 4/1
// The rest are not run: the trip count stays unknown.
// CHECK: halve<3>:[[# @LINE-11]]:7 ld 4 bound
// CHECK: halve<4>:[[# @LINE-12]]:7 ld 4 bound
// CHECK: halve<5>:[[# @LINE-13]]:7 ld 4 bound
// CHECK: halve<6>:[[# @LINE-14]]:7 ld 4 bound

int floorLog2(int n) {
  int res = 0;
  while (n > 1) {
    n >>= 1;
    res++;
  }
  return res;
}

// TEXT: note: kernel parameter 'iterations' taken as floorLog2(system_size / 2) with blockDim.x = system_size / 2: the launch at {{.*}}host-helper-arguments.cu:[[# @LINE+5]]:3
void solve(float *d, int system_size) {
  int iterations = floorLog2(system_size / 2);
  size_t local = system_size / 2;
  dim3 lws(local);
  halve<1><<<16, lws, system_size * sizeof(float)>>>(d, iterations);
}

static int bits(unsigned v) {
  int n = 0;
  for (; v; v >>= 1)
    if (v & 1u)
      continue;
    else
      ++n;
  return n;
}
int highestBit(int n) {
  int b = 31;
  do {
    if ((n >> b) & 1)
      break;
    --b;
  } while (b > 0);
  return b + bits(0) * 0;
}
// ARGS: "kernel parameter 'iterations' taken as highestBit(n) with blockDim.x = n: the launch at {{.*}}:[[# @LINE+1]]:32
void solve2(float *d, int n) { halve<2><<<16, n>>>(d, highestBit(n)); }

int recursiveLog(int n) { return n > 1 ? 1 + recursiveLog(n / 2) : 0; }
// ARGS-NOT: "kernel parameter 'iterations' taken as {{.*}}:[[# @LINE+1]]:32
void solve3(float *d, int n) { halve<3><<<16, n>>>(d, recursiveLog(n)); }

int scale;
int scaled(int n) { return floorLog2(n) * scale; }
// ARGS-NOT: "kernel parameter 'iterations' taken as {{.*}}:[[# @LINE+1]]:32
void solve4(float *d, int n) { halve<4><<<16, n>>>(d, scaled(n)); }

int printing(int n) { __builtin_printf("%d\n", n); return floorLog2(n); }
// ARGS-NOT: "kernel parameter 'iterations' taken as {{.*}}:[[# @LINE+1]]:32
void solve5(float *d, int n) { halve<5><<<16, n>>>(d, printing(n)); }

// Counts to overflow: the step budget ends the run first.
int spin(int n) {
  for (unsigned k = 1; k != 0u; ++k)
    n ^= 1;
  return n;
}
void solve6(float *d, int n) { halve<6><<<16, n>>>(d, spin(n)); }
