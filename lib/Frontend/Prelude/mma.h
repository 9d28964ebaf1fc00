/*===- mma.h - cuda-bank-lint prelude-mode stand-in (WMMA) -------------------===
 * nvcuda::wmma fragments of 16x16x16 half/bf16 (f32 accumulators) and
 * 16x16x8 tf32, with load_matrix_sync / store_matrix_sync / mma_sync /
 * fill_fragment written with Clang's NVPTX builtins, as the toolkit's
 * crt/mma.hpp does. Other shapes and integer types are not declared here.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_MMA_H
#define CBL_MMA_H
#include "cbl_prelude.h"
#include "cuda_bf16.h"
#include "cuda_fp16.h"
namespace nvcuda {
namespace wmma {
struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
namespace precision { struct tf32 {}; }
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment;
#define CBL_FRAGMENT(USE, M, N, K, T, ELEM, COUNT)                             \
  template <class L> struct fragment<USE, M, N, K, T, L> {                     \
    ELEM x[COUNT];                                                             \
    static constexpr int num_elements = COUNT;                                 \
  };
CBL_FRAGMENT(matrix_a, 16, 16, 16, __half, __half, 16)
CBL_FRAGMENT(matrix_b, 16, 16, 16, __half, __half, 16)
CBL_FRAGMENT(matrix_a, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, 8)
CBL_FRAGMENT(matrix_b, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, 8)
CBL_FRAGMENT(matrix_a, 16, 16, 8, precision::tf32, float, 4)
CBL_FRAGMENT(matrix_b, 16, 16, 8, precision::tf32, float, 4)
CBL_FRAGMENT(accumulator, 16, 16, 16, float, float, 8)
CBL_FRAGMENT(accumulator, 16, 16, 8, float, float, 8)
#undef CBL_FRAGMENT
template <class L> constexpr int cbl_layout() { return __is_same(L, row_major) ? 0 : 1; }
#define CBL_WMMA_LOAD(USE, K, T, BUILTIN)                                      \
  template <class L>                                                           \
  __device__ inline void load_matrix_sync(fragment<USE, 16, 16, K, T, L> &f,   \
                                          const T *p, unsigned ldm) {          \
    BUILTIN((int *)&f, (const int *)p, ldm, cbl_layout<L>());                  \
  }
CBL_WMMA_LOAD(matrix_a, 16, __half, __hmma_m16n16k16_ld_a)
CBL_WMMA_LOAD(matrix_b, 16, __half, __hmma_m16n16k16_ld_b)
CBL_WMMA_LOAD(matrix_a, 16, __nv_bfloat16, __bmma_m16n16k16_ld_a)
CBL_WMMA_LOAD(matrix_b, 16, __nv_bfloat16, __bmma_m16n16k16_ld_b)
#undef CBL_WMMA_LOAD
template <class L>
__device__ inline void load_matrix_sync(fragment<matrix_a, 16, 16, 8, precision::tf32, L> &f, const float *p,
                                        unsigned ldm) {
  __mma_tf32_m16n16k8_ld_a((int *)&f, (const int *)p, ldm, cbl_layout<L>());
}
template <class L>
__device__ inline void load_matrix_sync(fragment<matrix_b, 16, 16, 8, precision::tf32, L> &f, const float *p,
                                        unsigned ldm) {
  __mma_tf32_m16n16k8_ld_b((int *)&f, (const int *)p, ldm, cbl_layout<L>());
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f, const float *p,
                                        unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 0);
  else
    __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 1);
}
__device__ inline void store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float> &f,
                                         unsigned ldm, layout_t l) {
  if (l == mem_row_major)
    __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 0);
  else
    __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 1);
}
template <class Use, int M, int N, int K, class T, class L, class V>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, L> &f, const V &v) {
  for (int i = 0; i < f.num_elements; i++)
    f.x[i] = v;
}
/* The multiply itself touches no memory. */
template <class A, class B, class C>
__device__ void mma_sync(C &d, const A &a, const B &b, const C &c);
} // namespace wmma
} // namespace nvcuda
#endif
