// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='remark: barrier' --implicit-check-not='remark: call' --implicit-check-not='remark: possible'
// Barriers that only some threads of a block reach, with the block shape
// known from the launches at the end of the file (64 threads).

__global__ void halfWarp(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  if (threadIdx.x < 16)
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x < 16' is false for lanes 16-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void firstWarp(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warp 1 does not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: the if condition 'threadIdx.x < 32' is false for lanes 0-31 of warp 1
// CHECK: note: assuming block 64x1x1 from the launch
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// Lane 0 and the others wait at two different barriers: still divergent.
__global__ void twoBarriers(int *out) {
  if (threadIdx.x == 0)
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lane 0 of warp 0 reaches it, lanes 1-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 0' is false for lanes 1-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
// CHECK: note: the other branch has its own barrier here; threads waiting at different barriers do not synchronise with each other
  else
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 1-31 of warp 0 reach it, lane 0 does not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 0' is true for lane 0 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
// CHECK: note: the other branch has its own barrier here; threads waiting at different barriers do not synchronise with each other
  out[threadIdx.x] = 1;
}

__global__ void syncOr(int *out, int v) {
  int any = 0;
  if (threadIdx.x % 2 == 0)
    any = __syncthreads_or(v);
// CHECK: divergent.cu:[[@LINE-1]]:11: warning: barrier '__syncthreads_or()' is divergent within a warp: lanes 0, 2, 4, 6, 8, 10, ... (16 in all) of warp 0 reach it, lanes 1, 3, 5, 7, 9, 11, ... (16 in all) do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x % 2 == 0' is false for lanes 1, 3, 5, 7, 9, 11, ... (16 in all) of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = any;
}

__global__ void viaSwitch(int *out) {
  switch (threadIdx.x / 32) {
  case 0:
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent across warps: warp 0 reaches it, warp 1 does not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: the case condition of the switch 'threadIdx.x < 32' is false for lanes 0-31 of warp 1
// CHECK: note: assuming block 64x1x1 from the launch
    break;
  default:
    break;
  }
  out[threadIdx.x] = 0;
}

__global__ void viaContinue(int *out, int n) {
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 5)
      continue;
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 0-4, 6-31 of warp 0 reach it, lane 5 does not [cuda-barrier-divergence]
// CHECK: note: lane 5 of warp 0 skips the rest of the iteration here
// CHECK: note: assuming block 64x1x1 from the launch
  }
  out[threadIdx.x] = 0;
}

// Assigned under a thread-varying condition, so itself thread-varying.
__global__ void viaLocal(int *out) {
  int leader = 0;
  if (threadIdx.x == 7)
    leader = 1;
  if (leader)
    __syncthreads();
// CHECK: divergent.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lane 7 of warp 0 reaches it, lanes 0-6, 8-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 7' is false for lanes 0-6, 8-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = leader;
}

void launch(float *f, int *i, int n) {
  halfWarp<<<1, 64>>>(f);
  firstWarp<<<1, 64>>>(f);
  twoBarriers<<<1, 64>>>(i);
  syncOr<<<1, 64>>>(i, n);
  viaSwitch<<<1, 64>>>(i);
  viaContinue<<<1, 64>>>(i, n);
  viaLocal<<<1, 64>>>(i);
}
