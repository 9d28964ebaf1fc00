// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// bar.sync / barrier.sync without a thread count wait for the whole block;
// with a thread count they are named barriers for a subset and not checked.

__global__ void ptxBarriers(float *out) {
  if (threadIdx.x < 16)
    asm volatile("bar.sync 0;");
// CHECK: inline-ptx.cu:[[@LINE-1]]:5: warning: barrier 'bar.sync (inline PTX)' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x < 16' is false for lanes 16-31 of warp 0
// CHECK: note: assuming block 128x1x1 from the launch
  if (threadIdx.x < 16)
    asm volatile("barrier.sync.aligned 0;" ::: "memory");
// CHECK: inline-ptx.cu:[[@LINE-1]]:5: warning: barrier 'bar.sync (inline PTX)' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x < 16' is false for lanes 16-31 of warp 0
// CHECK: note: assuming block 128x1x1 from the launch
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
  out[threadIdx.x] = 0;
}

void launch(float *f) { ptxBarriers<<<1, 128>>>(f); }
