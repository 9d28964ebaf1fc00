// CuTe kernels of our own, one warp-level pattern each, for the CuTe suite of
// docs/accuracy.md: the tool's records against Nsight Compute's per-line
// shared-memory wavefronts on the device. Needs a CUTLASS checkout
// (NVIDIA/cutlass 7107b055, include/):
//   nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -I$CUTLASS/include cute-kernels.cu -o cute-kernels
//   ncu --section SourceCounters --page source --csv --print-source sass ./cute-kernels
//   cuda-bank-lint --format=json cute-kernels.cu -- -std=c++17 -I$CUTLASS/include
// Every kernel runs one block of the shape its launch names; main() launches
// each once.
#include <cstdio>
#include <cute/tensor.hpp>

using namespace cute;

// 1. A 32x32 float tile copied in from global memory with a TiledCopy of
// UniversalCopy<float> (8x32 threads, rows), then read back transposed by
// hand: row-major (32-way), padded (stride 33) and XOR-swizzled layouts.
template <class SmemLayout>
__global__ void tile_transpose(float const *in, float *out) {
  __shared__ float smem[cosize_v<SmemLayout>];
  Tensor sA = make_tensor(make_smem_ptr(smem), SmemLayout{});
  Tensor gA = make_tensor(make_gmem_ptr(in), make_layout(make_shape(_32{}, _32{}), LayoutRight{}));
  auto copy_in = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
                                 Layout<Shape<_8, _32>, Stride<_32, _1>>{}, Layout<Shape<_1, _1>>{});
  auto thr = copy_in.get_thread_slice(threadIdx.x);
  copy(copy_in, thr.partition_S(gA), thr.partition_D(sA));
  __syncthreads();
  Tensor gB = make_tensor(make_gmem_ptr(out), make_layout(make_shape(_32{}, _32{}), LayoutRight{}));
  for (int i = threadIdx.x / 32; i < 32; i += 8)
    gB(i, threadIdx.x % 32) = sA(threadIdx.x % 32, i);
}

using RowMajor = Layout<Shape<_32, _32>, Stride<_32, _1>>;
using Padded = Layout<Shape<_32, _32>, Stride<Int<33>, _1>>;
using Swizzled = decltype(composition(Swizzle<5, 0, 5>{}, RowMajor{}));

// 2. A 128-bit vectorised copy (UniversalCopy<uint128_t>) of a 16x64 half
// tile into shared memory, then the A operand of an SM80 16x8x16 MMA loaded
// with ldmatrix (SM75_U32x4_LDSM_N): row-major (rows of 128 bytes: 8-way)
// and Swizzle<3,3,3> (conflict-free).
template <class SmemLayout>
__global__ void ldmatrix_a(half_t const *in, float *out) {
  __shared__ __align__(128) half_t smem[cosize_v<SmemLayout>];
  Tensor sA = make_tensor(make_smem_ptr(smem), SmemLayout{});
  Tensor gA = make_tensor(make_gmem_ptr(in), make_layout(make_shape(_16{}, _64{}), LayoutRight{}));
  auto copy_in = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                                 Layout<Shape<_4, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thr = copy_in.get_thread_slice(threadIdx.x);
  copy(copy_in, thr.partition_S(gA), thr.partition_D(sA));
  __syncthreads();
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  auto thr_mma = mma.get_thread_slice(threadIdx.x);
  Tensor rA = thr_mma.partition_fragment_A(sA);
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thr_s2r = s2r.get_thread_slice(threadIdx.x);
  copy(s2r, thr_s2r.partition_S(sA), thr_s2r.retile_D(rA));
  float acc = 0;
  for (int i = 0; i < size(rA); ++i)
    acc += float(rA(i));
  out[threadIdx.x] = acc;
}

using HalfRowMajor = Layout<Shape<_16, _64>, Stride<_64, _1>>;
using HalfSwizzled = decltype(composition(Swizzle<3, 3, 3>{}, HalfRowMajor{}));

// 3. An sm80-style mainloop stage: cp.async (SM80_CP_ASYNC_CACHEALWAYS of
// 16 bytes) into a swizzled or a row-major tile, then ldmatrix as in 2.
template <class SmemLayout>
__global__ void cp_async_ldmatrix(half_t const *in, float *out) {
  __shared__ __align__(128) half_t smem[cosize_v<SmemLayout>];
  Tensor sA = make_tensor(make_smem_ptr(smem), SmemLayout{});
  Tensor gA = make_tensor(make_gmem_ptr(in), make_layout(make_shape(_16{}, _64{}), LayoutRight{}));
  auto copy_in = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                 Layout<Shape<_4, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thr = copy_in.get_thread_slice(threadIdx.x);
  copy(copy_in, thr.partition_S(gA), thr.partition_D(sA));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  auto thr_mma = mma.get_thread_slice(threadIdx.x);
  Tensor rA = thr_mma.partition_fragment_A(sA);
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thr_s2r = s2r.get_thread_slice(threadIdx.x);
  copy(s2r, thr_s2r.partition_S(sA), thr_s2r.retile_D(rA));
  float acc = 0;
  for (int i = 0; i < size(rA); ++i)
    acc += float(rA(i));
  out[threadIdx.x] = acc;
}

int main() {
  float *f = nullptr;
  half_t *h = nullptr;
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&h, 1 << 20);
  tile_transpose<RowMajor><<<1, 256>>>(f, f + 4096);
  tile_transpose<Padded><<<1, 256>>>(f, f + 4096);
  tile_transpose<Swizzled><<<1, 256>>>(f, f + 4096);
  ldmatrix_a<HalfRowMajor><<<1, 32>>>(h, f);
  ldmatrix_a<HalfSwizzled><<<1, 32>>>(h, f);
  cp_async_ldmatrix<HalfRowMajor><<<1, 32>>>(h, f);
  cp_async_ldmatrix<HalfSwizzled><<<1, 32>>>(h, f);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
