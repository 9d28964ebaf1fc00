// Kernel parameters that the launch computes from the block size it uses,
// whatever the program reads at run time: 'n' is the variable the block is
// built from (through a local assigned once, directly in the function body,
// before the launch), and 'iterations' is (int)log2(n / 2): an expression
// over the values the block size is computed from, the block size's own
// expression replaced by blockDim (a block of n / 2 threads fixes
// log2(n / 2), not n: n may be 2 * blockDim.x or one more; 'halved' runs
// 7 steps and its guard on n only decides which warps run). With the block
// size pinned both are known, the loop runs log2(64) = 6 times and every
// iteration's degree is exact: 2-way, then 4-way (stride 4: 32 lanes, 8 banks;
// stride 8: 16 lanes; 16: 8 lanes; 32: 4 lanes), then 2-way (stride 64, lanes
// 0 and 1). A local written twice, or a value read before the assignment it
// would need, is not followed: those parameters stay unknown.
// RUN: %cbl --block-dim=128 --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --explain --block-dim=128 %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// RUN: %cbl --block-dim=128 --format=json %s | %FileCheck %s --check-prefix=ARGS
#include <cmath>

__global__ void sweep(float *out, int n, int iterations) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int stride = 1;
  for (int j = 0; j < iterations; j++) {
    stride <<= 1;
    if (t < n / stride)
      s[t * stride] += 1.0f;
    __syncthreads();
  }
  out[t] = s[t];
}
// CHECK: sweep:28:7 ld 4 exact 4-way 4/1
// TEXT: block-size-arguments.cu:28:7: warning: up to 4-way bank conflict reading 's'
// TEXT: note: per case: 2-way at j=0, stride=1, 4-way at j=1, stride=2, 4-way at j=2, stride=4 (16 lanes active), 4-way at j=3, stride=8 (8 lanes active), 4-way at j=4, stride=16 (4 lanes active), 2-way at j=5, stride=32 (2 lanes active){{$}}
// TEXT: note: kernel parameter 'n' taken as blockDim.x: the launch at {{.*}}block-size-arguments.cu:[[# @LINE+8]]:3 (the only one in this file) passes 'system_size' for it
// TEXT: note: kernel parameter 'iterations' taken as log2(system_size / 2) with blockDim.x = system_size: the launch at {{.*}} passes 'iterations' for it

double run(float *d, int system_size) {
  size_t local;
  int iterations = log2(system_size / 2);
  local = system_size;
  dim3 lws(local);
  sweep<<<16, lws, system_size * sizeof(float)>>>(d, system_size, iterations);
  return 0;
}

// The same steps launched three ways (one instantiation per launch).
template <int Case>
__global__ void steps(float *out, int n, int iterations) {
  extern __shared__ float s[];
  int stride = 1;
  for (int j = 0; j < iterations; j++) {
    stride <<= 1;
    if (threadIdx.x < n / stride)
      s[threadIdx.x * stride] += 1.0f;
    __syncthreads();
  }
}
// CHECK: steps<1>:56:7 ld 4 bound
// CHECK: steps<2>:56:7 ld 4 exact 32-way 32/1
// CHECK: steps<3>:56:7 ld 4 bound

// 'local' is written twice: at the launch it is the block size (n is
// blockDim.x), but 'iterations' was computed from n, not from it.
// ARGS: "kernel parameter 'n' taken as blockDim.x: the launch at {{.*}}:[[# @LINE+7]]:3 (the only one in this file) passes 'local' for it"
// ARGS-NOT: "kernel parameter 'iterations' taken as {{.*}}:[[# @LINE+6]]:3
void runTwice(float *d, int n, bool small) {
  int local = n;
  int iterations = log2(n / 2);
  if (small)
    local = 64;
  steps<1><<<16, local>>>(d, local, iterations);
}

// A block of n / 2 threads: log2(n / 2) is known, n is not; the guard on n
// only decides which warps run, and those cost 32-way at strides 32 to 128.
// ARGS: "kernel parameter 'iterations' taken as log2(n / 2) with blockDim.x = n / 2: the launch at {{.*}}:[[# @LINE+5]]:3 (the only one in this file) passes 'log2(n / 2)' for it"
// TEXT: block-size-arguments.cu:[[# @LINE+4]]:3: note: kernel parameter 'iterations' taken as log2(n / 2) with blockDim.x = n / 2: the launch at {{.*}} (the only one in this file) passes 'log2(n / 2)' for it
// ARGS-NOT: "kernel parameter 'n' taken as {{.*}}:[[# @LINE+3]]:3
void runHalved(float *d, int n) {
  int half = n / 2;
  steps<2><<<16, half>>>(d, n, log2(n / 2));
}

// 'iterations' reads 'local' before its one assignment: not followed.
// ARGS: "kernel parameter 'n' taken as blockDim.x: the launch at {{.*}}:[[# @LINE+5]]:3 (the only one in this file) passes 'n' for it"
void runEarly(float *d, int n) {
  int local;
  int iterations = log2(local);
  local = n;
  steps<3><<<16, local>>>(d, n, iterations);
}
// ARGS-NOT: "kernel parameter 'iterations' taken as {{.*}}:[[# @LINE-2]]:3

// A function of the user's named log2 may compute anything (here the
// ceiling): it is not taken for the library's but run as written
// (symbolic/host-helper-arguments.cu): ceil(log2(128)) = 7 iterations, the
// last two 32-way (the library's floor would stop at j = 5).
int log2(unsigned n) { int r = 0; while ((1u << r) < n) ++r; return r; }
__global__ void ownLog(float *out, int n, int iterations) {
  extern __shared__ float s[];
  for (int j = 0; j < iterations; j++)
    s[threadIdx.x << j] = 0;
}
// CHECK: ownLog:[[# @LINE-2]]:5 st 4 exact 32-way 32/1
// TEXT: block-size-arguments.cu:[[# @LINE-3]]:5: warning: up to 32-way
// TEXT: note: per case: conflict-free at j=0, {{.*}}, 32-way at j=5, 32-way at j=6{{$}}
// ARGS: "kernel parameter 'iterations' taken as log2(unsigned(n)) with blockDim.x = n: the launch at {{.*}}:[[# @LINE+1]]:32
void runOwn(float *d, int n) { ownLog<<<1, n>>>(d, n, log2(unsigned(n))); }
