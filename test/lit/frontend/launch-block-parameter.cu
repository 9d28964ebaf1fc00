// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// launch-toolkit.test runs the same checks with the CUDA toolkit's headers.
// A launch whose block size is a parameter of the function that makes it
// takes what the calls of that function pass (followed as for generic
// launchers: 3 calls deep); several calls with other values are several
// launched shapes, each tried by the barrier check.

// (a) One call: 256 threads, "as called from" that call.
__global__ void stride2(float *y) {
  __shared__ float s[512];
  s[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[(threadIdx.x * 2) % 512];
// CHECK: launch-block-parameter.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 's'
// CHECK: (block 256x1x1 from the launch at {{.*}}launch-block-parameter.cu:[[@LINE+4]]:3 as called from {{.*}}launch-block-parameter.cu:[[@LINE+8]]:3)
}

void run(float *d, int n, int threads) {
  stride2<<<n / threads, threads>>>(d);
}

void host(float *d) {
  run(d, 1 << 20, 256);
}

// (b) Three calls, 64, 128 and 32 threads: at 128 the barrier is reached by
// two warps of four. Through two functions: both calls are named.
__global__ void firstHalf(float *y) {
  if (threadIdx.x < 64)
    __syncthreads();
// CHECK: launch-block-parameter.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warps 0-1 reach it, warps 2-3 do not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: assuming block 128x1x1 from the launch at {{.*}}launch-block-parameter.cu:[[@LINE+6]]:3 as called from {{.*}}launch-block-parameter.cu:[[@LINE+10]]:3, from {{.*}}launch-block-parameter.cu:[[@LINE+15]]:3 (other launches in this file use other shapes){{$}}
  y[threadIdx.x] = 2;
}

void launchHalf(float *d, unsigned block) {
  dim3 threads(block);
  firstHalf<<<1, threads>>>(d);
}

void twice(float *d, unsigned block) {
  launchHalf(d, block);
}

void hostHalf(float *d) {
  launchHalf(d, 64);
  twice(d, 128);
  twice(d, 32);
}

// (c) A block that no call gives as a constant stays not known, said so.
__global__ void runtimeBlock(float *y) {
  __shared__ float s[64];
  y[threadIdx.x] = s[threadIdx.x * 2];
// CHECK: launch-block-parameter.cu:[[@LINE-1]]:20: warning: 2-way bank conflict reading 's'
// CHECK: note: assuming a 1-D block whose size is a multiple of 32 threads (up to 1024, worst warp reported): no launch of 'runtimeBlock' with a constant block size
}

void runRuntime(float *d, int threads) {
  runtimeBlock<<<1, threads>>>(d);
}

int main(int argc, char **argv) {
  runRuntime(nullptr, argc * 32);
}

// JSON: "block_dim": [
// JSON-NEXT: 256,
// JSON: "block_dim_note": "from the launch at {{.*}}launch-block-parameter.cu:20:3 as called from {{.*}}launch-block-parameter.cu:24:3",
// JSON: "function": "stride2",
