// A kernel argument that is a parameter of the host function launching it
// is followed to the calls of that function in the file: when every call
// (the function's only uses) passes the same known value, the argument is
// that value (cuda-samples' fwtBatchGPU(d, 1, log2Data), a constant of
// main's). Not followed: calls passing different values, a function whose
// address is taken (it may be called with anything), a parameter the
// function writes, a default argument.
// RUN: %cbl --block-dim=64 --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --explain --block-dim=64 %s 2>&1 | %FileCheck %s --check-prefix=TEXT

template <int Case>
__global__ void steps(float *out, int n) {
  extern __shared__ float s[];
  for (int j = 0; j < n; j++)
    s[threadIdx.x << j] = 0;
}
// Three steps: conflict-free, 2-way, 4-way.
// CHECK: steps<1>:[[# @LINE-3]]:5 st 4 exact 4-way 4/1
// TEXT: host-parameter-calls.cu:[[# @LINE-4]]:5: warning: up to 4-way
// TEXT: note: per case: conflict-free at j=0, 2-way at j=1, 4-way at j=2{{$}}
// CHECK: steps<2>:[[# @LINE-6]]:5 st 4 unknown
// CHECK: steps<3>:[[# @LINE-7]]:5 st 4 unknown
// CHECK: steps<4>:[[# @LINE-8]]:5 st 4 unknown
// CHECK: steps<5>:[[# @LINE-9]]:5 st 4 unknown

// TEXT: host-parameter-calls.cu:[[# @LINE+1]]:44: note: kernel parameter 'n' taken as 3 ('3' is what every call of 'runSame' in this file passes for 'count'): the launch at
static void runSame(float *d, int count) { steps<1><<<1, 64>>>(d, count); }
void runDifferent(float *d, int count) { steps<2><<<1, 64>>>(d, count); }
void runTaken(float *d, int count) { steps<3><<<1, 64>>>(d, count); }
void runWritten(float *d, int count) {
  count += 1;
  steps<4><<<1, 64>>>(d, count);
}
void runDefault(float *d, int count = 3) { steps<5><<<1, 64>>>(d, count); }

const int Three = 3;
void (*escape)(float *, int) = runTaken;

int main() {
  float *d = nullptr;
  runSame(d, Three);
  runSame(d, 1 + 2);
  runDifferent(d, 2);
  runDifferent(d, 3);
  runTaken(d, 3);
  runWritten(d, 2);
  runDefault(d);
}
