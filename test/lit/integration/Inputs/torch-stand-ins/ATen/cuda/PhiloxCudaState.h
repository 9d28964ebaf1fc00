// Stand-in for PyTorch's ATen/cuda/PhiloxCudaState.h (flash-attention.test):
// the random state flash-attention's kernels receive as an opaque buffer.
#pragma once
#include <cstdint>

namespace at {
struct PhiloxCudaState {
  union Payload {
    uint64_t val;
    int64_t *ptr;
  };
  Payload seed_{};
  Payload offset_{};
  uint32_t offset_intragraph_ = 0;
  bool captured_ = false;
};
} // namespace at
