/*===- cbl_prelude.h - CUDA declarations for analysis without a toolkit ----===
 *
 * cuda-bank-lint force-includes this file when no CUDA toolkit is available
 * (or --cuda-mode=prelude is given). It declares what device code commonly uses
 * - execution-space attributes, builtin variables, vector types, __half,
 * barriers, warp intrinsics, atomics and the math used in index expressions -
 * so that self-contained kernels parse exactly as with the real headers.
 * Barriers, fences, atomics and integer helpers have the bodies the toolkit's
 * headers give them, written with Clang's NVPTX builtins, so that Clang's code
 * generation turns them into what nvcc makes (atomicrmw/cmpxchg instructions,
 * bar.warp.sync, arithmetic). Functions whose result is data (shuffles, math)
 * stay declarations: an unknown value.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_PRELUDE_H
#define CBL_PRELUDE_H
#define __CBL_PRELUDE__ 1

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __grid_constant__
#define CUDART_VERSION 13000
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

#define CBL_VEC1(T, N, A) struct __align__(A) N##1 { T x; };
#define CBL_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; };
#define CBL_VEC3(T, N) struct N##3 { T x, y, z; };
#define CBL_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; };
#define CBL_VECS(T, N, S)                                                      \
  CBL_VEC1(T, N, S) CBL_VEC2(T, N, 2 * S) CBL_VEC3(T, N) CBL_VEC4(T, N, 4 * S) \
  static __host__ __device__ inline N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; } \
  static __host__ __device__ inline N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; } \
  static __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) { N##3 r; r.x = x; r.y = y; r.z = z; return r; } \
  static __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) { N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
CBL_VECS(signed char, char, 1)
CBL_VECS(unsigned char, uchar, 1)
CBL_VECS(short, short, 2)
CBL_VECS(unsigned short, ushort, 2)
CBL_VECS(int, int, 4)
CBL_VECS(unsigned int, uint, 4)
CBL_VECS(long long, longlong, 8)
CBL_VECS(unsigned long long, ulonglong, 8)
CBL_VECS(float, float, 4)
#undef CBL_VEC4
#define CBL_VEC4(T, N, A) struct __align__(16) N##4 { T x, y, z, w; };
CBL_VECS(double, double, 8)
#undef CBL_VECS
#undef CBL_VEC1
#undef CBL_VEC2
#undef CBL_VEC3
#undef CBL_VEC4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

#include "__clang_cuda_builtin_vars.h"
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return uint3{x, y, z}; }

/* Half precision: storage-compatible with cuda_fp16.h (2 and 4 bytes). */
struct __align__(2) __half { unsigned short __x; };
struct __align__(4) __half2 { __half x, y; };
struct __align__(2) __nv_bfloat16 { unsigned short __x; };
struct __align__(4) __nv_bfloat162 { __nv_bfloat16 x, y; };
typedef __half half;
typedef __half2 half2;
__device__ __half __float2half(float);
__device__ float __half2float(__half);
__device__ __half __hadd(__half, __half);
__device__ __half __hmul(__half, __half);

/* Launch configuration, needed to parse k<<<g, b>>>(...) in host code. */
typedef struct CUstream_st *cudaStream_t;
/* Which of the two Clang calls depends on the CUDA version it assumes. */
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0,
                                                cudaStream_t stream = 0);
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                 cudaStream_t stream = 0);

/* Barriers and warp-level primitives. */
extern "C" __device__ void __syncthreads(void);
extern "C" __device__ inline int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
extern "C" __device__ inline int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
extern "C" __device__ inline int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__device__ inline void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
__device__ inline void __threadfence(void) { __nvvm_membar_gl(); }
__device__ inline void __threadfence_block(void) { __nvvm_membar_cta(); }
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
#define CBL_SHFL(T)                                                            \
  __device__ T __shfl_sync(unsigned, T, int, int = 32);                        \
  __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);                \
  __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);              \
  __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
CBL_SHFL(int) CBL_SHFL(unsigned) CBL_SHFL(long long) CBL_SHFL(unsigned long long)
CBL_SHFL(float) CBL_SHFL(double)
#undef CBL_SHFL

/* Atomics: atomicrmw and cmpxchg instructions, as nvcc's are. */
#define CBL_ATOMIC(T)                                                          \
  __device__ inline T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicMin(T *p, T v) { return __atomic_fetch_min(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicMax(T *p, T v) { return __atomic_fetch_max(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }   \
  __device__ inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); } \
  __device__ inline T atomicCAS(T *p, T c, T v) {                              \
    __atomic_compare_exchange_n(p, &c, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    return c;                                                                  \
  }
CBL_ATOMIC(int) CBL_ATOMIC(unsigned) CBL_ATOMIC(unsigned long long)
#undef CBL_ATOMIC
__device__ inline float atomicAdd(float *p, float v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
__device__ inline double atomicAdd(double *p, double v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
__device__ inline unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
__device__ inline unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }

/* Integer and float helpers that appear in index expressions. */
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline float min(float a, float b) { return a < b ? a : b; }
__host__ __device__ inline float max(float a, float b) { return a > b ? a : b; }
__host__ __device__ inline double min(double a, double b) { return a < b ? a : b; }
__host__ __device__ inline double max(double a, double b) { return a > b ? a : b; }
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
extern "C" __device__ int __nv_mulhi(int, int);
extern "C" __device__ unsigned __nv_umulhi(unsigned, unsigned);
extern "C" __device__ long long __nv_mul64hi(long long, long long);
extern "C" __device__ unsigned long long __nv_umul64hi(unsigned long long, unsigned long long);
__device__ inline int __mulhi(int a, int b) { return __nv_mulhi(a, b); }
__device__ inline unsigned __umulhi(unsigned a, unsigned b) { return __nv_umulhi(a, b); }
__device__ inline long long __mul64hi(long long a, long long b) { return __nv_mul64hi(a, b); }
__device__ inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return __nv_umul64hi(a, b); }
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned __brev(unsigned);
__device__ float __fdividef(float, float);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __saturatef(float);
__device__ float rsqrtf(float);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ unsigned __float_as_uint(float);
__device__ float __uint_as_float(unsigned);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ float __int2float_rn(int);
__device__ float __fmaf_rn(float, float, float);
__device__ float sqrtf(float);
__device__ float expf(float);
__device__ float logf(float);
__device__ float sinf(float);
__device__ float cosf(float);
__device__ float fabsf(float);
__device__ float floorf(float);
__device__ float ceilf(float);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ float powf(float, float);
__device__ float fmaf(float, float, float);
__device__ double sqrt(double);
__device__ double exp(double);
__device__ double log(double);
__device__ double fabs(double);
__device__ double floor(double);
__device__ double fmin(double, double);
__device__ double fmax(double, double);
__device__ double fma(double, double, double);
__device__ inline int abs(int a) { return a < 0 ? -a : a; }
__device__ void __trap(void);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
/* Device-side overloads only: the C library declares the host ones (a
   __host__ __device__ declaration here would clash with <cstdio>, <cmath>). */
extern "C" __device__ int printf(const char *, ...);
__host__ __device__ void assert(int);

#endif /* CBL_PRELUDE_H */
