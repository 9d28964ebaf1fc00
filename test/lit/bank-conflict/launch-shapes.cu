// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// The block shape comes from the launches in the file when their block
// argument is constant: a literal, a dim3 of constants, or a local variable
// initialised with one and never written afterwards. A variable that is
// written (assigned, incremented, or its address taken) is not trusted.

#define LIMIT 1024

__global__ void fromLocalCount(float *out) {
  __shared__ float s[32 * 512];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launch-shapes.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming block 512x1x1 from the launch at {{.*}}launch-shapes.cu:[[# @LINE+27]]:3

__global__ void fromDim3OfLocals(float *out) {
  __shared__ float s[32 * 512];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launch-shapes.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming block 64x4x1 from the launch at {{.*}}launch-shapes.cu:[[# @LINE+23]]:3

__global__ void fromIncremented(float *out) {
  __shared__ float s[32 * 1024];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launch-shapes.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'fromIncremented' with a constant block size

__global__ void fromAddressTaken(float *out) {
  __shared__ float s[32 * 1024];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launch-shapes.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'fromAddressTaken' with a constant block size

void setThreads(unsigned *n);

void launch(float *o) {
  unsigned threadCount = LIMIT / 2;
  fromLocalCount<<<1, threadCount>>>(o);
  unsigned rows = 4, cols = 64;
  dim3 block(cols, rows);
  fromDim3OfLocals<<<1, block>>>(o);
  unsigned grown = 256;
  grown++;
  fromIncremented<<<1, grown>>>(o);
  unsigned chosen = 128;
  setThreads(&chosen);
  fromAddressTaken<<<1, chosen>>>(o);
}
