/*===- cooperative_groups.h - cuda-bank-lint prelude-mode stand-in ---------===
 * The groups and calls whose meaning the analyser models: block/grid/tile
 * sync, thread_rank(), thread_index(), size(), shuffles on tiles.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_COOPERATIVE_GROUPS_H
#define CBL_COOPERATIVE_GROUPS_H
#include "cbl_prelude.h"
namespace cooperative_groups {
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 dim_threads() const;
  __device__ dim3 group_dim() const;
};
class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
};
template <unsigned Size, typename Parent = void>
class thread_block_tile : public thread_group {
public:
  thread_block_tile() = default;
  /* A tile with a known parent converts to one without, as in CUDA. */
  template <typename P> __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <typename T> __device__ T shfl(T, int) const;
  template <typename T> __device__ T shfl_down(T, unsigned) const;
  template <typename T> __device__ T shfl_up(T, unsigned) const;
  template <typename T> __device__ T shfl_xor(T, unsigned) const;
  __device__ unsigned ballot(int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
};
class coalesced_group : public thread_group {};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, typename Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &);
__device__ thread_group tiled_partition(const thread_group &, unsigned);
template <typename Group> __device__ void sync(const Group &g) { g.sync(); }
} // namespace cooperative_groups
#endif
