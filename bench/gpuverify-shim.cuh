// Force-included (-include) by bench/gpuverify.py into every kernel of
// GPUVerify's CUDA test suite and benchmarks, in place of GPUVerify's own
// <cuda.h> (bugle's include-blang/cuda.h), which those files are written for.
// It supplies what that header adds to CUDA and the toolkit's headers lack:
//
// - GPUVerify's specification language (preconditions, loop invariants,
//   assertions, axioms), written here from the names those files use.  A
//   precondition (__requires(n == 1024), __global_requires) is what the
//   kernel may assume on entry, as GPUVerify does: Clang's __builtin_assume,
//   which the optimiser propagates (n is 1024 where it is read).  Its
//   helpers: __implies, __ite and __is_pow2 as C; the predicates on other threads and
//   offsets (__enabled, __other_int, __read_offset_bytes, __uniform_bool, ...) as calls
//   without a body, so that an assumption using them gives no fact.  The
//   rest (invariants, assertions, postconditions, axioms) expands to nothing;
// - the free function cooperative_groups::synchronize(g) of the pre-release
//   cooperative-groups API, as g.sync();
// - texture and surface references (texture<T, dim, mode>, surface<void, dim>),
//   which CUDA 12 removed: a reference is a device-side handle (Clang's
//   device_builtin_texture_type), a fetch a call without a body, whose value
//   depends on its coordinates (GPUVerify's model declares fetches without a
//   body too), a surface write likewise.
#pragma once
#include <cooperative_groups.h>

#define __implies(a, b) (!(a) || (b))
#define __ite(c, a, b) ((c) ? (a) : (b))
#define __is_pow2(x) ((x) != 0 && ((x) & ((x) - 1)) == 0)
__device__ bool __enabled();
__device__ int __other_int(int);
__device__ bool __read_implies(const void *, bool);
__device__ bool __write_implies(const void *, bool);
__device__ unsigned long __read_offset_bytes(const void *);
__device__ unsigned long __write_offset_bytes(const void *);
__device__ unsigned long __ptr_offset_bytes(const void *);
__device__ bool __uniform_bool(bool);
__device__ bool __uniform_int(int);
__device__ bool __distinct_int(int);
__device__ bool __add_noovfl(unsigned, unsigned);
#ifndef CBL_GPUVERIFY_NO_PRECONDITIONS
#define __requires(...) __builtin_assume(__VA_ARGS__)
#define __global_requires(...) __builtin_assume(__VA_ARGS__)
#else // bench/gpuverify.py's second run of a file whose preconditions do not compile
#define __requires(...) ((void)0)
#define __global_requires(...) ((void)0)
#endif
#define __ensures(...) ((void)0)
#define __global_ensures(...) ((void)0)
#define __invariant(...) ((void)0)
#define __global_invariant(...) ((void)0)
#define __candidate_invariant(...) ((void)0)
#define __candidate_global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __function_wide_candidate_invariant(...) ((void)0)
#define __assert(...) ((void)0)
#define __global_assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __requires_fresh_array(...) ((void)0)
#define __array_snapshot(...) ((void)0)
#define __axiom(...)

namespace cooperative_groups {
template <class Group> __device__ __forceinline__ void synchronize(const Group &g) { g.sync(); }
} // namespace cooperative_groups

#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
#endif
#ifndef cudaSurfaceType1D
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC
#endif

struct __gv_reference { int normalized; };
template <class T, int Type = cudaTextureType1D, int Mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : __gv_reference {};
template <class T, int Type = cudaSurfaceType1D>
struct __attribute__((device_builtin_surface_type)) surface : __gv_reference {};

// What a fetch returns: the element type, or floats for a normalised read.
template <class T> struct __gv_normalised { typedef float type; };
#define __GV_NORMALISED(N) \
  template <> struct __gv_normalised<char##N> { typedef float##N type; }; \
  template <> struct __gv_normalised<uchar##N> { typedef float##N type; }; \
  template <> struct __gv_normalised<short##N> { typedef float##N type; }; \
  template <> struct __gv_normalised<ushort##N> { typedef float##N type; };
__GV_NORMALISED(1)
__GV_NORMALISED(2)
__GV_NORMALISED(4)
#undef __GV_NORMALISED
template <class T, int Mode> struct __gv_texel { typedef T type; };
template <class T> struct __gv_texel<T, cudaReadModeNormalizedFloat> {
  typedef typename __gv_normalised<T>::type type;
};

// Overloads beside the toolkit's texture-object and surface-object ones.
#define __GV_FETCH(NAME)                                                        \
  template <class T, int D, int M, class... Coords>                             \
  __device__ typename __gv_texel<T, M>::type NAME(const texture<T, D, M> &, Coords...);
__GV_FETCH(tex1Dfetch) __GV_FETCH(tex1D) __GV_FETCH(tex2D) __GV_FETCH(tex3D)
__GV_FETCH(tex1DLayered) __GV_FETCH(tex2DLayered) __GV_FETCH(texCubemap)
__GV_FETCH(texCubemapLayered)
#undef __GV_FETCH
#define __GV_STORE(NAME)                                                        \
  template <class V, class T, int D, class... Coords>                           \
  __device__ void NAME(V, const surface<T, D> &, Coords...);
__GV_STORE(surf1Dwrite) __GV_STORE(surf2Dwrite) __GV_STORE(surf3Dwrite)
__GV_STORE(surf1DLayeredwrite) __GV_STORE(surf2DLayeredwrite)
#undef __GV_STORE
