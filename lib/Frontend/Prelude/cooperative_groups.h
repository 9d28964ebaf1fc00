/*===- cooperative_groups.h - cuda-bank-lint prelude-mode stand-in ---------===
 * The groups and calls whose meaning the analyser models: block/grid/tile
 * sync, thread_rank(), thread_index(), size(), shuffles on tiles.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_COOPERATIVE_GROUPS_H
#define CBL_COOPERATIVE_GROUPS_H
#include "cbl_prelude.h"
/* The groups with the bodies the toolkit gives them, in terms of threadIdx
   and blockDim. */
namespace cooperative_groups {
namespace __cbl {
__device__ inline unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
} // namespace __cbl
class thread_group {
public:
  unsigned __size = 0, __rank = 0;
  bool __block = false;
  __device__ void sync() const {
    if (__block)
      __syncthreads();
    else
      __syncwarp();
  }
  __device__ unsigned long long size() const { return __size; }
  __device__ unsigned long long num_threads() const { return __size; }
  __device__ unsigned long long thread_rank() const { return __rank; }
};
class thread_block : public thread_group {
public:
  __device__ thread_block() {
    __size = __cbl::block_size();
    __rank = __cbl::block_rank();
    __block = true;
  }
  __device__ void sync() const { __syncthreads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
class grid_group : public thread_group {
public:
  __device__ void sync() const; /* a grid barrier: not a block barrier */
  __device__ bool is_valid() const;
};
template <unsigned Size, typename Parent = void>
class thread_block_tile : public thread_group {
public:
  unsigned __meta_rank = 0, __meta_size = 0;
  thread_block_tile() = default;
  template <typename P> __device__ thread_block_tile(const thread_block_tile<Size, P> &o) {
    __size = o.__size;
    __rank = o.__rank;
    __meta_rank = o.__meta_rank;
    __meta_size = o.__meta_size;
  }
  __device__ void sync() const { __syncwarp(); }
  __device__ unsigned long long size() const { return Size; }
  __device__ unsigned long long num_threads() const { return Size; }
  __device__ unsigned long long thread_rank() const { return __cbl::block_rank() % Size; }
  __device__ unsigned meta_group_rank() const { return __meta_rank; }
  __device__ unsigned meta_group_size() const { return __meta_size; }
  template <typename T> __device__ T shfl(T, int) const;
  template <typename T> __device__ T shfl_down(T, unsigned) const;
  template <typename T> __device__ T shfl_up(T, unsigned) const;
  template <typename T> __device__ T shfl_xor(T, unsigned) const;
  __device__ unsigned ballot(int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
};
class coalesced_group : public thread_group {};
__device__ inline thread_block this_thread_block() { return thread_block(); }
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, typename Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &p) {
  thread_block_tile<Size, Parent> t;
  t.__size = Size;
  t.__rank = __cbl::block_rank() % Size;
  t.__meta_rank = unsigned(p.thread_rank() / Size);
  t.__meta_size = unsigned((p.size() + Size - 1) / Size);
  return t;
}
__device__ inline thread_group tiled_partition(const thread_group &p, unsigned n) {
  thread_group t;
  t.__size = n;
  t.__rank = unsigned(p.thread_rank() % n);
  return t;
}
template <typename Group> __device__ void sync(const Group &g) { g.sync(); }
} // namespace cooperative_groups
#endif
