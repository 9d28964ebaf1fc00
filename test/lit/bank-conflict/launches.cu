// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// The block shape comes from the launches in the file when their block
// argument is constant: a literal, a dim3 of constants, or a local variable
// initialised with one and never written afterwards. A variable that is
// written (assigned, incremented, its address taken, or passed by non-const
// reference) is not trusted.
// A kernel parameter that every launch in the file sets the same way (one
// constant, or the block size it launches with) takes that value, and every
// finding in the kernel says so.

#define LIMIT 1024

__global__ void fromLocalCount(float *out) {
  __shared__ float s[32 * 512];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming block 512x1x1 from the launch at {{.*}}launches.cu:[[# @LINE+83]]:3

__global__ void fromDim3OfLocals(float *out) {
  __shared__ float s[32 * 512];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming block 64x4x1 from the launch at {{.*}}launches.cu:[[# @LINE+79]]:3

__global__ void fromIncremented(float *out) {
  __shared__ float s[32 * 1024];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'fromIncremented' with a constant block size

__global__ void fromAddressTaken(float *out) {
  __shared__ float s[32 * 1024];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'fromAddressTaken' with a constant block size

// The stride every launch passes: 32, so 32-way exactly.
__global__ void constantStride(int stride) {
  __shared__ float s[32 * 256];
  s[threadIdx.x * stride] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: kernel parameter 'stride' taken as 32: all 2 launches in this file pass '32' for it
// JSON: "expression": "s[threadIdx.x * stride]",
// JSON-NEXT: "file":
// JSON-NEXT: "function": "constantStride",
// JSON-NEXT: "ideal": 1,
// JSON-NEXT: "launch_arguments": [
// JSON-NEXT: "kernel parameter 'stride' taken as 32: all 2 launches in this file pass '32' for it"
// JSON: "status": "exact",

// Launches that disagree (16 and 32) fix nothing: the cost stays a function
// of 'stride', a possible conflict with its condition.
__global__ void disagreeingStride(int stride) {
  __shared__ float s[32 * 256];
  s[threadIdx.x * stride] = 0;
}
// JSON: "expression": "s[threadIdx.x * stride]",
// JSON-NEXT: "file":
// JSON-NEXT: "function": "disagreeingStride",
// JSON-NEXT: "ideal": 1,
// JSON-NEXT: "launch_arguments": [],
// JSON: "status": "bound",

// The block width passed as an argument (a wavelet step written for any
// block size): 'width' is blockDim.x, here 256, so the halving loop runs.
__global__ void halving(float *out, int width) {
  extern __shared__ float data[];
  unsigned active = width >> 1, first = threadIdx.x * 2;
  for (int level = 0; level < 3; ++level) {
    if (threadIdx.x < active) {
      data[first] += data[first + 1];
      active >>= 1;
      first <<= 1;
    }
    __syncthreads();
  }
}
// CHECK: launches.cu:[[# @LINE-7]]:7: warning: 8-way bank conflict writing 'data': 8 lanes of warp 0 write 8 distinct words of bank 0 (8 wavefronts, ideal 1)
// CHECK: note: assuming block 256x1x1 from the launch at {{.*}}launches.cu:[[# @LINE+35]]:3
// CHECK: launches.cu:[[# @LINE+34]]:3: note: kernel parameter 'width' taken as blockDim.x: the launch at {{.*}}launches.cu:[[# @LINE+34]]:3 (the only one in this file) passes 'steps.x' for it
// CHECK: launches.cu:[[# @LINE-10]]:22: warning: 4-way bank conflict reading 'data': 4 lanes of warp 0 read 4 distinct words of bank 0 in phase 0 of 2 (8 wavefronts, ideal 2)
// CHECK: note: the compiler merges this load with 'data[first]' (line [[# @LINE-11]]) into one 64-bit load

__global__ void fromReference(float *out) {
  __shared__ float s[32 * 1024];
  s[threadIdx.x * 32] = 0;
}
// CHECK: launches.cu:[[# @LINE-2]]:3: warning: 32-way bank conflict writing 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'fromReference' with a constant block size

void setThreads(unsigned *n);
void chooseThreads(unsigned &n);

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
  unsigned picked = 64;
  chooseThreads(picked);
  fromReference<<<1, picked>>>(o);
  constantStride<<<1, 32>>>(32);
  constantStride<<<2, 32>>>(32);
  disagreeingStride<<<1, 32>>>(16);
  disagreeingStride<<<1, 32>>>(32);
  dim3 steps(256);
  halving<<<1, steps, 4096>>>(o, steps.x);
}

// The config key LaunchArguments: false turns the inference off: 'stride'
// stays a parameter, and the cost a stated condition on it.
// RUN: %cbl --remarks --config='{LaunchArguments: false}' %s 2>&1 | %FileCheck %s --check-prefix=OFF
// OFF: launches.cu:{{[0-9]+}}:3: remark: possible bank conflict writing 's': {{.*}}when 'stride'
// OFF-NOT: taken as
