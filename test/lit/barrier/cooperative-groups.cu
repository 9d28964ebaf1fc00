// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Also run with the CUDA toolkit's own headers by cooperative-groups-toolkit.test.
// Block and grid syncs are block barriers; tile and warp syncs are not.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blockSyncDivergent(float *out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 16)
    block.sync();
// CHECK: cooperative-groups.cu:[[@LINE-1]]:5: warning: barrier 'block.sync()' is divergent within a warp: lanes 0-15 of warp 0 reach it, lanes 16-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition '{{.*}}threadIdx.x < 16' is false for lanes 16-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = 0;
}

__global__ void freeSyncDivergent(float *out) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x >= 32)
    cg::sync(block);
// CHECK: cooperative-groups.cu:[[@LINE-1]]:5: warning: barrier 'cg::sync(block)' is divergent across warps: warp 1 reaches it, warp 0 does not (all lanes of a warp agree) [cuda-barrier-divergence-across-warps]
// CHECK: note: the if condition 'threadIdx.x >= 32' is false for lanes 0-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = 0;
}

__global__ void temporarySyncDivergent(float *out) {
  if (threadIdx.x == 1)
    cg::this_thread_block().sync();
// CHECK: cooperative-groups.cu:[[@LINE-1]]:5: warning: barrier 'cg::this_thread_block().sync()' is divergent within a warp: lane 1 of warp 0 reaches it, lanes 0, 2-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x == 1' is false for lanes 0, 2-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = 0;
}

__global__ void gridSyncDivergent(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x < 8)
    grid.sync();
// CHECK: cooperative-groups.cu:[[@LINE-1]]:5: warning: barrier 'grid.sync()' is divergent within a warp: lanes 0-7 of warp 0 reach it, lanes 8-31 do not [cuda-barrier-divergence]
// CHECK: note: the if condition 'threadIdx.x < 8' is false for lanes 8-31 of warp 0
// CHECK: note: assuming block 64x1x1 from the launch
  out[threadIdx.x] = 0;
}

__global__ void blockSyncUniform(float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  if (n > 0)
    block.sync();
  cg::sync(block);
  out[threadIdx.x] = 0;
}

__global__ void tileSyncInWarp(float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int warp_id = threadIdx.x / 32;
  if (warp_id == 0) {
    tile.sync();
    cg::sync(tile);
    __syncwarp();
  }
  out[threadIdx.x] = 0;
}

// grid.sync() waits for the whole grid, so blocks must agree as well;
// block.sync() only needs the threads of one block to agree.
__global__ void gridSyncPerBlock(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 0)
    grid.sync();
// CHECK: cooperative-groups.cu:[[@LINE-1]]:5: warning: grid barrier 'grid.sync()' is divergent across blocks: whether a block reaches it depends on 'blockIdx.x' (blocks with blockIdx.x = 0 and blockIdx.x = 1 disagree), and it waits for every thread of the grid [cuda-barrier-divergence]
  cg::thread_block block = cg::this_thread_block();
  if (blockIdx.x % 2 == 0)
    block.sync();
  out[threadIdx.x] = 0;
}

void launch(float *f, int n) {
  blockSyncDivergent<<<1, 64>>>(f);
  freeSyncDivergent<<<1, 64>>>(f);
  temporarySyncDivergent<<<1, 64>>>(f);
  gridSyncDivergent<<<1, 64>>>(f);
  blockSyncUniform<<<1, 64>>>(f, n);
  tileSyncInWarp<<<1, 64>>>(f);
}
