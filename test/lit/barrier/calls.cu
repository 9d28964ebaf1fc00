// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='remark: barrier' --implicit-check-not='remark: call' --implicit-check-not='remark: possible'
// Barriers inside device functions, reported at the call with a note
// pointing into the callee.

__device__ void stage(float *s) {
  s[threadIdx.x] *= 2.0f;
  __syncthreads();
}

__device__ void twoLevels(float *s) { stage(s); }

__global__ void evenThreads(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x % 2 == 0)
    stage(s);
// CHECK: calls.cu:[[@LINE-1]]:5: warning: call to 'stage', which executes a block barrier, is divergent within a warp: lanes 0, 2, 4, 6, 8, 10, ... (16 in all) of warp 0 reach it, lanes 1, 3, 5, 7, 9, 11, ... (16 in all) do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x % 2 == 0' is false for lanes 1, 3, 5, 7, 9, 11, ... (16 in all) of warp 0
// CHECK: note: 'stage' executes a block barrier here
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void nested(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 8)
    twoLevels(s);
// CHECK: calls.cu:[[@LINE-1]]:5: warning: call to 'twoLevels', which executes a block barrier, is divergent within a warp: lanes 0-7 of warp 0 reach it, lanes 8-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x < 8' is false for lanes 8-31 of warp 0
// CHECK: note: 'twoLevels' executes a block barrier here
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void everyone(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  stage(s);
  out[threadIdx.x] = s[threadIdx.x];
}

// The helper's barrier depends on its parameter: fine with a uniform
// argument, divergent when the caller passes threadIdx.x.
__device__ void maybeSync(int leader) {
  if (leader == 0)
    __syncthreads();
}

__global__ void uniformArgument(float *out, int n) {
  maybeSync(n);
  out[threadIdx.x] = 0;
}

__global__ void varyingArgument(float *out) {
  maybeSync(threadIdx.x);
// CHECK: calls.cu:[[@LINE-1]]:3: warning: call to 'maybeSync', which executes a block barrier, is divergent within a warp: lane 0 of warp 0 reaches it, lanes 1-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 0' is false for lanes 1-31 of warp 0
// CHECK: note: 'maybeSync' executes a block barrier here
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = 0;
}

void launch(float *f, int n) {
  evenThreads<<<1, 64>>>(f);
  nested<<<1, 64>>>(f);
  everyone<<<1, 64>>>(f);
  uniformArgument<<<1, 64>>>(f, n);
  varyingArgument<<<1, 64>>>(f);
}
