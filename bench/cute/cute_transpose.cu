// A 4-byte CuTe pattern beside cute_suite.cu's 2- and 16-byte ones (README.md):
// a 32x32 float tile copied in with a TiledCopy of UniversalCopy<float>, then
// read back transposed by hand, in a row-major (32-way), padded (Stride<33,1>)
// and XOR-swizzled (Swizzle<5,0,5>) layout. Measured on an H200 (nvcc 13.0,
// CUTLASS 7107b055), one block per kernel:
//   nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -I$CUTLASS/include cute_transpose.cu -o t
//   ncu --section SourceCounters --import-source yes -f -o rep ./t
//   ncu -i rep.ncu-rep --page source --csv --print-source sass,cuda > source.csv
// then bench/cute/compare.py as for cute_suite.cu (the kernel lines below must
// stay where they are: the measured rows name them).
#include <cstdio>
#include <cute/tensor.hpp>
using namespace cute;

// A 32x32 float tile copied in from global memory with a TiledCopy of
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

int main() {
  float *f = nullptr;
  cudaMalloc(&f, 1 << 20);
  tile_transpose<RowMajor><<<1, 256>>>(f, f + 4096);
  tile_transpose<Padded><<<1, 256>>>(f, f + 4096);
  tile_transpose<Swizzled><<<1, 256>>>(f, f + 4096);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
