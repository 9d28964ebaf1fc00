// Stand-in for PyTorch's ATen/cuda/detail/UnpackRaw.cuh (flash-attention.test):
// the seed and offset of a PhiloxCudaState, read through its pointers when
// it was captured in a CUDA graph.
#pragma once
#include <ATen/cuda/PhiloxCudaState.h>
#include <tuple>

namespace at::cuda::philox {
inline __host__ __device__ std::tuple<uint64_t, uint64_t> unpack(at::PhiloxCudaState Arg) {
  if (Arg.captured_)
    return std::make_tuple(static_cast<uint64_t>(*Arg.seed_.ptr),
                           static_cast<uint64_t>(*Arg.offset_.ptr + Arg.offset_intragraph_));
  return std::make_tuple(Arg.seed_.val, Arg.offset_.val);
}
} // namespace at::cuda::philox
