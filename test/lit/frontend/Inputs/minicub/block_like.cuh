// A small library in the style of CUB's block primitives (written for these
// tests; no CUB code): shared storage as structs of arrays behind an
// Uninitialized<> wrapper, bound by reference in the constructor through
// Alias(), integers computed in the constructor (linear_tid, lane from
// %laneid), member functions that reach shared memory through `this`, a
// static helper returning a pointer, and a recursive template.
#pragma once

namespace minicub {

template <typename T> struct Uninitialized {
  using DeviceWord = unsigned int;
  static constexpr int WORDS = (sizeof(T) + sizeof(DeviceWord) - 1) / sizeof(DeviceWord);
  DeviceWord storage[WORDS];
  __device__ __forceinline__ T &Alias() { return reinterpret_cast<T &>(*this); }
};

__device__ __forceinline__ unsigned LaneId() {
  unsigned ret;
  asm("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

template <int BLOCK_THREADS, int SEGMENT> struct RakingLayout {
  static constexpr int PADDED = SEGMENT + 1;
  struct _TempStorage { int buff[BLOCK_THREADS / SEGMENT * PADDED]; };
  struct TempStorage : Uninitialized<_TempStorage> {};
  static __device__ __forceinline__ int *PlacementPtr(TempStorage &ts, unsigned linear_tid) {
    unsigned offset = linear_tid + linear_tid / SEGMENT; // one pad word per segment
    return ts.Alias().buff + offset;
  }
};

template <typename T, int BLOCK_THREADS> class BlockReduceLike {
  static constexpr int WARPS = BLOCK_THREADS / 32;
  struct _TempStorage {
    T warp_aggregates[WARPS];
    T block_aggregate;
  };
  _TempStorage &temp_storage;
  unsigned linear_tid;
  unsigned warp_id;
  unsigned lane_id;

  template <int W> __device__ T ApplyWarpAggregates(T total) {
    if constexpr (W < WARPS) {
      total += temp_storage.warp_aggregates[W];
      return ApplyWarpAggregates<W + 1>(total);
    } else {
      return total;
    }
  }

public:
  struct TempStorage : Uninitialized<_TempStorage> {};
  __device__ BlockReduceLike(TempStorage &ts)
      : temp_storage(ts.Alias()), linear_tid(threadIdx.x), warp_id(threadIdx.x / 32),
        lane_id(LaneId()) {}
  __device__ T Sum(T input) {
    if (lane_id == 0)
      temp_storage.warp_aggregates[warp_id] = input;
    __syncthreads();
    T total = input;
    if (linear_tid == 0)
      total = ApplyWarpAggregates<1>(temp_storage.warp_aggregates[0]);
    return total;
  }
};

template <typename T, int BLOCK_THREADS, int ITEMS> class BlockExchangeLike {
  struct _TempStorage { T buff[BLOCK_THREADS * ITEMS]; };
  _TempStorage &temp_storage;
  unsigned linear_tid;

public:
  struct TempStorage : Uninitialized<_TempStorage> {};
  __device__ BlockExchangeLike(TempStorage &ts) : temp_storage(ts.Alias()), linear_tid(threadIdx.x) {}
  __device__ void BlockedToStriped(T (&items)[ITEMS]) {
    for (int i = 0; i < ITEMS; ++i)
      temp_storage.buff[linear_tid * ITEMS + i] = items[i];
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i)
      items[i] = temp_storage.buff[i * BLOCK_THREADS + linear_tid];
  }
};

/// Partials placed for raking with one pad word per 16 (as CUB's
/// BlockRakingLayout with 16-element segments): lane 31 meets lane 0 in bank
/// 0, a 2-way conflict (measured on an H100 for CUB's own layout).
template <typename T, int BLOCK_THREADS> class BlockRakingLike {
  struct _TempStorage { T buff[BLOCK_THREADS + BLOCK_THREADS / 16]; };
  _TempStorage &temp_storage;
  unsigned linear_tid;

public:
  struct TempStorage : Uninitialized<_TempStorage> {};
  __device__ BlockRakingLike(TempStorage &ts) : temp_storage(ts.Alias()), linear_tid(threadIdx.x) {}
  __device__ void Place(T partial) { temp_storage.buff[linear_tid + linear_tid / 16] = partial; }
};

} // namespace minicub
