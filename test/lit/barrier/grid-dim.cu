// --grid-dim pins the grid as --block-dim pins the block: the barrier checks
// take blockIdx below it and gridDim as it. GPUVerify's uniform_add (CUDA
// samples' shfl_scan): 255 blocks of 256 threads and len == 65536, so no
// thread's id exceeds len and no thread returns early; with the grid not
// known, block 256 has threads on both sides of len.
// RUN: %cbl --remarks --block-dim=256 %s 2>&1 | %FileCheck %s --check-prefix=ANY
// RUN: %cbl --remarks --block-dim=256 --grid-dim=255 %s 2>&1 | %FileCheck %s --check-prefix=PINNED --implicit-check-not=remark:
// RUN: %cbl --remarks --block-dim=256 --grid-dim=300 %s 2>&1 | %FileCheck %s --check-prefix=LARGER
// RUN: %cbl --block-dim=64 --grid-dim=8 %s 2>&1 | %FileCheck %s --check-prefix=GRIDSYNC
// RUN: not %cbl --grid-dim=0 %s 2>&1 | %FileCheck %s --check-prefix=BAD
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void uniform_add(int *data, int *partial_sums, int len) {
  __builtin_assume(len == 65536);
  __shared__ int buf;
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id > len)
    return;
  if (threadIdx.x == 0)
    buf = partial_sums[blockIdx.x];
  __syncthreads();
  data[id] += buf;
}
// ANY: grid-dim.cu:[[# @LINE-3]]:3: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: with blockIdx.x = 256
// LARGER: grid-dim.cu:[[# @LINE-4]]:3: remark: barrier '__syncthreads()' is not reached by threads that returned earlier: with blockIdx.x = 256

// A grid barrier under a test of the last block: found in the grid given.
__global__ void lastSyncs(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x < 7)
    grid.sync();
  out[blockIdx.x] = 0;
}
// GRIDSYNC: grid-dim.cu:[[# @LINE-3]]:5: warning: grid barrier 'grid.sync()' is divergent across blocks: whether a block reaches it depends on 'blockIdx.x' (in a grid of 8 blocks, blocks with blockIdx.x = 0 and blockIdx.x = 7 disagree)
// PINNED: grid-dim.cu:[[# @LINE-4]]:5: warning: grid barrier 'grid.sync()' is divergent across blocks: whether a block reaches it depends on 'blockIdx.x' (in a grid of 255 blocks, blocks with blockIdx.x = 0 and blockIdx.x = 7 disagree)
// BAD: --grid-dim expects X[,Y[,Z]] blocks (x below 2^31, y and z below 65536), got '0'
