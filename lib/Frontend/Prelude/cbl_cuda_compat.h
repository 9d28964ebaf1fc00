/*===- cbl_cuda_compat.h - What nvcc declares and Clang 19 lacks ------------===
 *
 * cuda-bank-lint force-includes this file in both modes, after Clang's CUDA
 * wrapper (real headers) or after cbl_prelude.h (no toolkit). It declares the
 * device facilities that the CUDA 12/13 headers give nvcc but that Clang 19
 * does not see:
 *  - the cache-hint loads and stores of sm_32_intrinsics.h (__ldcg, __ldca,
 *    __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt; and __ldg in
 *    prelude mode), which Clang's wrapper deliberately does not include;
 *  - nvcc's built-in atomics __nv_atomic_* with the __NV_ATOMIC_* orders and
 *    __NV_THREAD_SCOPE_* scopes;
 *  - surface reads and writes (surf1D/2D/3D read/write) on surface objects;
 *  - a device-side __assert_fail in prelude mode (assert() from <cassert>);
 *  - __CUDACC__ as 1, as nvcc defines it (Clang's wrapper defines it empty,
 *    which breaks `#if __CUDACC__`), and nvcc's version macros
 *    __CUDACC_VER_MAJOR__/_MINOR__/_BUILD__ from the toolkit's CUDA_VERSION
 *    (Clang defines none: CUTLASS's `#if __CUDACC_VER_MAJOR__ >= 12` guards
 *    would drop its SM90 kernels and the host code that launches them).
 * These are declarations only (but __cvta_generic_to_shared in prelude mode,
 * which converts the address as the toolkit does). A call that passes a
 * pointer into shared memory to one of them is reported as an access the
 * tool does not model (status 'unsupported').
 *===----------------------------------------------------------------------===*/
#ifndef CBL_CUDA_COMPAT_H
#define CBL_CUDA_COMPAT_H

#undef __CUDACC__
#define __CUDACC__ 1
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDA_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

#define CBL_CACHE_HINT_TYPES(X)                                                \
  X(char) X(signed char) X(short) X(int) X(long) X(long long)                  \
  X(unsigned char) X(unsigned short) X(unsigned int) X(unsigned long)          \
  X(unsigned long long) X(float) X(double)                                     \
  X(char2) X(char4) X(short2) X(short4) X(int2) X(int4) X(longlong2)           \
  X(uchar2) X(uchar4) X(ushort2) X(ushort4) X(uint2) X(uint4) X(ulonglong2)    \
  X(float2) X(float4) X(double2)

#define CBL_CACHE_HINT_DECLS(T)                                                \
  __device__ T __ldcg(const T *);                                              \
  __device__ T __ldca(const T *);                                              \
  __device__ T __ldcs(const T *);                                              \
  __device__ T __ldlu(const T *);                                              \
  __device__ T __ldcv(const T *);                                              \
  __device__ void __stwb(T *, T);                                              \
  __device__ void __stcg(T *, T);                                              \
  __device__ void __stcs(T *, T);                                              \
  __device__ void __stwt(T *, T);
CBL_CACHE_HINT_TYPES(CBL_CACHE_HINT_DECLS)
#undef CBL_CACHE_HINT_DECLS

#ifdef __CBL_PRELUDE__
/* Clang's wrapper defines __ldg with builtins; without a toolkit, declare it. */
#define CBL_LDG_DECL(T) __device__ T __ldg(const T *);
CBL_CACHE_HINT_TYPES(CBL_LDG_DECL)
#undef CBL_LDG_DECL
__device__ __half __ldg(const __half *);
__device__ __half2 __ldg(const __half2 *);
__device__ __nv_bfloat16 __ldg(const __nv_bfloat16 *);
__device__ __nv_bfloat162 __ldg(const __nv_bfloat162 *);
/* Address-space conversions (sm_20_intrinsics.h). */
__device__ size_t __cvta_generic_to_global(const void *);
__device__ inline size_t __cvta_generic_to_shared(const void *p) {
  return (size_t)(void __attribute__((address_space(3))) *)p;
}
__device__ size_t __cvta_generic_to_constant(const void *);
__device__ size_t __cvta_generic_to_local(const void *);
__device__ void *__cvta_global_to_generic(size_t);
__device__ void *__cvta_shared_to_generic(size_t);
__device__ void *__cvta_constant_to_generic(size_t);
__device__ void *__cvta_local_to_generic(size_t);
__device__ unsigned __isShared(const void *);
__device__ unsigned __isGlobal(const void *);
/* glibc's assert() calls the host __assert_fail; device code needs its own. */
__device__ static inline void __assert_fail(const char *, const char *, unsigned int,
                                            const char *) {}
#endif
#undef CBL_CACHE_HINT_TYPES

/* nvcc's built-in atomics (CUDA 12.8+). The enumerators have the values of
   crt/device_functions.h, which Clang's wrapper does not include. */
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE,
       __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER,
       __NV_THREAD_SCOPE_DEVICE, __NV_THREAD_SCOPE_SYSTEM };
template <class T> __device__ T __nv_atomic_load_n(const T *, int, int = 4);
template <class T> __device__ void __nv_atomic_load(const T *, T *, int, int = 4);
template <class T, class U> __device__ void __nv_atomic_store_n(T *, U, int, int = 4);
template <class T> __device__ void __nv_atomic_store(T *, T *, int, int = 4);
template <class T, class U> __device__ T __nv_atomic_exchange_n(T *, U, int, int = 4);
template <class T> __device__ void __nv_atomic_exchange(T *, T *, T *, int, int = 4);
template <class T, class U>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, U, bool, int, int, int = 4);
template <class T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int, int = 4);
#define CBL_NV_ATOMIC_FETCH(OP)                                                \
  template <class T, class U> __device__ T __nv_atomic_fetch_##OP(T *, U, int, int = 4); \
  template <class T, class U> __device__ T __nv_atomic_##OP##_fetch(T *, U, int, int = 4);
CBL_NV_ATOMIC_FETCH(add) CBL_NV_ATOMIC_FETCH(sub) CBL_NV_ATOMIC_FETCH(and)
CBL_NV_ATOMIC_FETCH(or) CBL_NV_ATOMIC_FETCH(xor) CBL_NV_ATOMIC_FETCH(min)
CBL_NV_ATOMIC_FETCH(max)
#undef CBL_NV_ATOMIC_FETCH
__device__ void __nv_atomic_thread_fence(int, int = 4);

/* Surface reads and writes on surface objects. The toolkit's
   surface_indirect_functions.h defines them through nvcc's texture/surface
   handler, which Clang's wrapper does not include. */
#ifndef __CBL_PRELUDE__
#define CBL_SURFACE_OBJECT cudaSurfaceObject_t
#define CBL_BOUNDARY cudaSurfaceBoundaryMode
#define CBL_BOUNDARY_DEFAULT = cudaBoundaryModeTrap
#else
#define CBL_SURFACE_OBJECT unsigned long long
#define CBL_BOUNDARY int
#define CBL_BOUNDARY_DEFAULT = 0
#endif
template <class T>
__device__ T surf1Dread(CBL_SURFACE_OBJECT, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf1Dread(T *, CBL_SURFACE_OBJECT, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ T surf2Dread(CBL_SURFACE_OBJECT, int, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf2Dread(T *, CBL_SURFACE_OBJECT, int, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ T surf3Dread(CBL_SURFACE_OBJECT, int, int, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf3Dread(T *, CBL_SURFACE_OBJECT, int, int, int,
                           CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ T surf1DLayeredread(CBL_SURFACE_OBJECT, int, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ T surf2DLayeredread(CBL_SURFACE_OBJECT, int, int, int,
                               CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf1Dwrite(T, CBL_SURFACE_OBJECT, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf2Dwrite(T, CBL_SURFACE_OBJECT, int, int, CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf3Dwrite(T, CBL_SURFACE_OBJECT, int, int, int,
                            CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf1DLayeredwrite(T, CBL_SURFACE_OBJECT, int, int,
                                   CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
template <class T>
__device__ void surf2DLayeredwrite(T, CBL_SURFACE_OBJECT, int, int, int,
                                   CBL_BOUNDARY CBL_BOUNDARY_DEFAULT);
#undef CBL_SURFACE_OBJECT
#undef CBL_BOUNDARY
#undef CBL_BOUNDARY_DEFAULT

#endif /* CBL_CUDA_COMPAT_H */
