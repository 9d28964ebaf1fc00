// RUN: %cbl --config='{LaunchArguments: false}' --format=json %s | %FileCheck %s
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=LAUNCH
// A morphology filter's van Herk/Gil-Werman pass (the shape of HeCBench's
// morphology-cuda): the block width is a kernel parameter (selSize), a scan
// over it runs log2(selSize) steps, and byte offsets depend on it. Every
// value of the parameter the analysis tries runs the block's warps and the
// scan's steps; this took 16 s for the real file (60x Clang's parse, issue
// #17) and must stay bounded. Without the launch's arguments the byte offsets
// move by 3 * selSize, a step finer than a bank word: the warp's bytes cost
// the same at every such shift, and every step of the scan costs the same,
// so the scan's accesses are exact per execution, their count not known. The launch builds the
// block from the same variable it passes for selSize (dim3 b(sel, 1)): with
// the launch arguments used (the default), selSize is blockDim.x and every
// access is exact for each block width tried.
template <int opType>
__device__ void twoWayScan(const unsigned char *buffer, unsigned char *opArray, const int selSize, const int tid) {
  opArray[tid] = buffer[tid];
  opArray[tid + selSize] = buffer[tid + selSize];
  __syncthreads();
  for (int offset = 1; offset < selSize; offset *= 2) {
    if (tid >= offset)
      opArray[tid + selSize - 1] = opArray[tid + selSize - 1] + opArray[tid + selSize - 1 - offset];
    if (tid <= selSize - 1 - offset)
      opArray[tid] = opArray[tid] + opArray[tid + offset];
    __syncthreads();
  }
}
template <int opType>
__global__ void vhgw_horiz(unsigned char *dst, const unsigned char *src, const int width, const int height, const int selSize) {
  extern __shared__ unsigned char sMem[];
  unsigned char *buffer = sMem;
  unsigned char *opArray = buffer + 2 * selSize;
  const int tidx = threadIdx.x + blockIdx.x * blockDim.x;
  const int tidy = threadIdx.y + blockIdx.y * blockDim.y;
  if (tidx >= width || tidy >= height) return;
  buffer[threadIdx.x] = src[tidy * width + tidx];
  if (tidx + selSize < width)
    buffer[threadIdx.x + selSize] = src[tidy * width + tidx + selSize];
  __syncthreads();
  twoWayScan<opType>(buffer, opArray, selSize, threadIdx.x);
}
void run(unsigned char *d, unsigned char *s, int w, int h, int sel) {
  dim3 b(sel, 1);
  vhgw_horiz<0><<<dim3(w / sel, h), b, 4 * sel>>>(d, s, w, h, sel);
}
// The early return at the image's edge splits the block at a boundary: the
// warps inside cost exactly this.
// CHECK: "expression": "opArray[tid]"
// CHECK: "status": "exact"
// CHECK: "expression": "opArray[tid + selSize - 1]"
// CHECK: "per_execution": true,
// CHECK: "reason": "which loop iterations run depends on 'selSize'; every iteration that may run costs the same: the cost shown is exact per execution, how many executions is not known",
// CHECK-NEXT: "status": "bound"
// LAUNCH: "kernel parameter 'selSize' taken as blockDim.x: the launch at {{.*}}parameter-block-width.cu:44:3 (the only one in this file) passes 'sel' for it"
// LAUNCH-NOT: "status": "{{bound|unknown}}"
