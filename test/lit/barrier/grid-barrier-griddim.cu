// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Construct: a grid barrier under a condition comparing blockIdx with a value
// computed from gridDim ('blockIdx.x < gridDim.x / 2').  With 8 blocks,
// blocks 0-3 reach it and blocks 4-7 do not, so the grid never completes the
// barrier: the check tries grids of a few sizes when the guards read gridDim.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void lowerHalfSyncs(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x < gridDim.x / 2)
    grid.sync();
// CHECK: grid-barrier-griddim.cu:[[@LINE-1]]:5: warning: grid barrier 'grid.sync()' is divergent across blocks: whether a block reaches it depends on 'blockIdx.x' (in a grid of 8 blocks, blocks with blockIdx.x = 0 and blockIdx.x = 4 disagree){{.*}} [cuda-barrier-divergence]
  out[blockIdx.x] = 0;
}

// Every block agrees: silent.
__global__ void allSync(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (gridDim.x > 1)
    grid.sync();
  out[blockIdx.x] = 0;
}

void launch(float *out) {
  lowerHalfSyncs<<<8, 64>>>(out);
  allSync<<<8, 64>>>(out);
}
