// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --check-prefix=PLAIN --allow-empty --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --remarks --explain %s -- -DDEBUG_SYNC 2>&1 | %FileCheck %s --check-prefix=DEBUG --implicit-check-not=warning: --implicit-check-not=remark:
// Only the configured preprocessor state counts.
// PLAIN-NOT: {{warning|remark}}:

__global__ void k(float *out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = 1;
#ifdef DEBUG_SYNC
    __syncthreads();
// DEBUG: ifdef.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// DEBUG: note: the if condition 'threadIdx.x < 16' is false for lanes 16-31 of warp 0
// DEBUG: note: assuming block 32x1x1 from the launch
#endif
  }
#ifndef DEBUG_SYNC
  __syncthreads();
#else
  if (threadIdx.x >= 16)
    __syncthreads();
// DEBUG: ifdef.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' is divergent within a warp: lanes 16-31 of warp 0 reach it, lanes 0-15 do not [cuda-barrier-divergence]
// DEBUG: note: the if condition 'threadIdx.x >= 16' is false for lanes 0-15 of warp 0
// DEBUG: note: assuming block 32x1x1 from the launch
#endif
}

void launch(float *f) { k<<<1, 32>>>(f); }
