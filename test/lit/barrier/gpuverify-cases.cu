// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The barrier-divergence cases of GPUVerify's test suite (OpenCL
// divergence/, sourcelocation_tests/barrier_divergence, barrierconditionalkernelparam,
// basicbarrier), rewritten in CUDA for this test; GPUVerify's labels in brackets.

// [xfail: barrier may be reached by non-uniform control flow]
__global__ void raceAndDivergence(int *A, int *B) {
  int tmp = A[blockIdx.x * blockDim.x + threadIdx.x];
  if (tmp == 0) {
    __syncthreads();
// CHECK: gpuverify-cases.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'A[blockIdx.x * blockDim.x + threadIdx.x]' (value loaded from memory), which can differ between threads [cuda-barrier-divergence]
// CHECK: note: the if condition 'A[blockIdx.x * blockDim.x + threadIdx.x] == 0' is thread-varying and cannot be evaluated per thread
  }
  B[0] = tmp;
}

// [pass]
__global__ void raceNoDivergence(int *A, int *B) {
  int tmp = A[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  B[0] = tmp;
}

// [xfail: barrier may be reached by non-uniform control flow]
__global__ void sourceLocation(int *a) {
  if (threadIdx.x == 3) {
    __syncthreads();
// CHECK: gpuverify-cases.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lane 3 of warp 0 reaches it, lanes 0-2, 4-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 3' is false for lanes 0-2, 4-31 of warp 0
// CHECK: note: assuming block 1024x1x1 from the launch
  }
  a[threadIdx.x] = threadIdx.x;
}

// [pass]
__global__ void conditionalKernelParam(int x) {
  if (x == 10) {
    __syncthreads();
  }
}

// [pass]
__global__ void basicBarrier() {
  int a, b, c;
  a = 2;
  b = 3;
  c = a + b;
  __syncthreads();
}

void launch(int *a, int *b, int x) {
  raceAndDivergence<<<1024, 1024>>>(a, b);
  raceNoDivergence<<<1024, 1024>>>(a, b);
  sourceLocation<<<1024, 1024>>>(a);
  conditionalKernelParam<<<64, 64>>>(x);
  basicBarrier<<<64, 64>>>();
}
