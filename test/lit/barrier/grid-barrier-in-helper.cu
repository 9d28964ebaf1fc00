// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Construct: a grid barrier inside a device helper (a plain function or a
// template taking the group), called under a condition on blockIdx.  Blocks
// that skip the call never arrive, so the grid waits forever: the call is
// divergent across blocks, as the same g.sync() written in the kernel is.
// (Found by bench/gpuverify.py: GPUVerify's testsuite/CUDA
// cooperative_groups/fail/block_divergence_grid_group.)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void exchange(cg::grid_group grid) { grid.sync(); }

template <class Group> __device__ void wait_for(const Group &g) { g.sync(); }

__global__ void evenBlocksExchange(int *data) {
  cg::grid_group grid = cg::this_grid();
  int mine = data[blockIdx.x * blockDim.x + threadIdx.x];
  if (blockIdx.x % 2 == 0)
    exchange(grid);
// CHECK: grid-barrier-in-helper.cu:[[@LINE-1]]:5: warning: call to 'exchange', which executes a grid barrier, is divergent across blocks: whether a block reaches it depends on 'blockIdx.x' (blocks with blockIdx.x = 0 and blockIdx.x = 1 disagree){{.*}} [cuda-barrier-divergence]
// CHECK: grid-barrier-in-helper.cu:{{[0-9]+}}:{{[0-9]+}}: note: 'exchange' executes a grid barrier here
  data[blockIdx.x * blockDim.x + threadIdx.x] = mine + 1;
}

__global__ void firstBlocksWait(int *data, int half) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x < 4)
    wait_for(grid);
// CHECK: grid-barrier-in-helper.cu:[[@LINE-1]]:5: warning: {{.*}}'wait_for{{.*}} divergent across blocks{{.*}} [cuda-barrier-divergence]
  data[blockIdx.x] = half;
}

// Every block calls the helper: silent.
__global__ void allBlocksExchange(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x] = 1;
  exchange(grid);
  data[blockIdx.x] += data[(blockIdx.x + 1) % gridDim.x];
}

void launch(int *data) {
  evenBlocksExchange<<<8, 64>>>(data);
  firstBlocksWait<<<8, 64>>>(data, 4);
  allBlocksExchange<<<8, 64>>>(data);
}
