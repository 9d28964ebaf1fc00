// CuTe kernels of our own for the device-IR front end, measured on an H100
// with Nsight Compute (bench/cute/README.md): TiledCopy with UniversalCopy
// atoms into row-major, padded and Swizzle<B,M,S>-composed shared tiles;
// ldmatrix (SM75_U32x4_LDSM_N) partitions of a TiledMMA over K-major tiles,
// plain and swizzled; and an sm80-style mainloop (cp.async into a swizzled
// tile, then ldmatrix). Built against a CUTLASS checkout (not committed):
//   nvcc -O3 -lineinfo -arch=sm_90 -std=c++17 -I $CUTLASS/include cute_suite.cu -o cute_suite
//   cuda-bank-lint cute_suite.cu -- -std=c++17 -I $CUTLASS/include
#include <cute/tensor.hpp>
#include <cstdio>

using namespace cute;

// --- 1. TiledCopy, 128-bit UniversalCopy: global -> shared (rows), then
//        shared -> global read down the columns 2 bytes at a time ----------
template <class SmemLayout>
__global__ void tiledCopy(half_t const *in, half_t *out) {
  __shared__ __align__(128) half_t smem[cosize_v<SmemLayout>];
  auto tile = make_layout(make_shape(Int<64>{}, Int<64>{}), LayoutRight{});
  Tensor gIn = make_tensor(make_gmem_ptr(in), tile);
  Tensor gOut = make_tensor(make_gmem_ptr(out), tile);
  Tensor s = make_tensor(make_smem_ptr(smem), SmemLayout{});
  // 256 threads, 8 per row, 8 halves (16 bytes) each.
  auto rows = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                              Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thrRows = rows.get_thread_slice(threadIdx.x);
  copy(rows, thrRows.partition_S(gIn), thrRows.partition_D(s));
  __syncthreads();
  // 256 threads down the columns: thread t reads column t % 64.
  auto cols = make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{},
                              Layout<Shape<_64, _4>, Stride<_1, _64>>{}, Layout<Shape<_1, _1>>{});
  auto thrCols = cols.get_thread_slice(threadIdx.x);
  copy(cols, thrCols.partition_S(s), thrCols.partition_D(gOut));
}

using RowMajor = Layout<Shape<_64, _64>, Stride<_64, _1>>;
using Padded = Layout<Shape<_64, _64>, Stride<_72, _1>>;
using Swizzled = decltype(composition(Swizzle<3, 3, 3>{}, RowMajor{}));

// --- 2. ldmatrix partitions of an MMA's A operand ---------------------------
template <class SmemLayout>
__global__ void ldsm(half_t const *in, float *out) {
  __shared__ __align__(128) half_t smem[cosize_v<SmemLayout>];
  Tensor s = make_tensor(make_smem_ptr(smem), SmemLayout{}); // (M=64, K=32), K contiguous
  for (int i = threadIdx.x; i < 64 * 32; i += blockDim.x)
    smem[i] = in[i];
  __syncthreads();
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  auto thrMma = mma.get_thread_slice(threadIdx.x);
  Tensor rA = thrMma.partition_fragment_A(s);
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thrS2r = s2r.get_thread_slice(threadIdx.x);
  copy(s2r, thrS2r.partition_S(s), thrS2r.retile_D(rA));
  float acc = 0;
  for (int i = 0; i < size(rA); ++i)
    acc += float(rA(i));
  out[threadIdx.x] = acc;
}

using KMajor = Layout<Shape<_64, _32>, Stride<_32, _1>>;
using KMajorSwizzled = decltype(composition(Swizzle<2, 3, 3>{}, KMajor{}));

// --- 3. An sm80-style mainloop: cp.async into a swizzled tile, ldmatrix out -
__global__ void mainloop(half_t const *in, float *out, int tiles) {
  __shared__ __align__(128) half_t smem[cosize_v<KMajorSwizzled>];
  Tensor s = make_tensor(make_smem_ptr(smem), KMajorSwizzled{});
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                             Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
  auto thrG2s = g2s.get_thread_slice(threadIdx.x);
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  auto thrMma = mma.get_thread_slice(threadIdx.x);
  Tensor rA = thrMma.partition_fragment_A(s);
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thrS2r = s2r.get_thread_slice(threadIdx.x);
  float acc = 0;
  for (int t = 0; t < tiles; ++t) {
    Tensor g = make_tensor(make_gmem_ptr(in + t * 64 * 32), KMajor{});
    copy(g2s, thrG2s.partition_S(g), thrG2s.partition_D(s));
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
    copy(s2r, thrS2r.partition_S(s), thrS2r.retile_D(rA));
    for (int i = 0; i < size(rA); ++i)
      acc += float(rA(i));
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

int main() {
  half_t *in, *out;
  float *f;
  cudaMalloc(&in, 64 * 64 * 8 * sizeof(half_t));
  cudaMalloc(&out, 64 * 64 * sizeof(half_t));
  cudaMalloc(&f, 256 * sizeof(float));
  cudaMemset(in, 0, 64 * 64 * 8 * sizeof(half_t));
  tiledCopy<RowMajor><<<1, 256>>>(in, out);
  tiledCopy<Padded><<<1, 256>>>(in, out);
  tiledCopy<Swizzled><<<1, 256>>>(in, out);
  ldsm<KMajor><<<1, 128>>>(in, f);
  ldsm<KMajorSwizzled><<<1, 128>>>(in, f);
  mainloop<<<1, 128>>>(in, f, 4);
  cudaError_t e = cudaDeviceSynchronize();
  printf("cute_suite: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
