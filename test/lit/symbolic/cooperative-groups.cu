// RUN: %cbl --block-dim=128 %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --block-dim=128 --format=json %s | %FileCheck %s --check-prefix=JSON
// cooperative_groups queries are modelled: a tile's thread_rank(), size(),
// meta_group_rank() (the tile's index in the block, or in its parent tile)
// and meta_group_size(). A loop over rows by warp (idx starts at the warp's
// index and strides by the warps of the grid) is the same for every lane of
// a warp, so its guard does not split a warp and the accesses are exact.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rowsPerWarp(float *out, int rows, int C) {
  extern __shared__ float acc[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int base = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  for (int idx = base; idx < rows; idx += gridDim.x * warp.meta_group_size()) {
    for (int i = warp.thread_rank(); i < C; i += warp.size())
      atomicAdd(&acc[i], out[idx * C + i]);
  }
  block.sync();
  // meta_group_rank() of 8-lane tiles of a warp (the parent is in the type):
  // 0..3 in each warp.
  auto quarter = cg::tiled_partition<8>(warp);
  acc[quarter.meta_group_rank() * 32 + quarter.thread_rank()] = 0;
  // CHECK: cooperative-groups.cu:[[@LINE-1]]:3: warning: 4-way bank conflict writing 'acc'
}

// JSON: "byte_offset": "i * 4",
// JSON: "expression": "atomicAdd(&acc[i], out[idx * C + i])",
// JSON: "reason": "",
// JSON-NEXT: "status": "exact",
// JSON-NEXT: "wavefronts": 2,
// JSON: "byte_offset": "((((blockDim.y * threadIdx.z + threadIdx.y) * blockDim.x + threadIdx.x) * 4 & 96) + ((blockDim.y * threadIdx.z + threadIdx.y) * blockDim.x + threadIdx.x & 7)) * 4"
// JSON: "status": "exact",
