/*===- cbl_device_bodies.h - Prelude bodies for the device-IR front end ----===
 *
 * With the device-IR front end (__CBL_DEVICE_IR__), the prelude's device
 * functions get the bodies the toolkit's headers give them, written with
 * Clang's NVPTX builtins, so that Clang's code generation turns them into
 * what nvcc makes: atomics become atomicrmw/cmpxchg instructions, warp
 * barriers bar.warp.sync, integer helpers arithmetic. Functions whose result
 * is data (shuffles, math) stay declarations: an unknown value.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_DEVICE_BODIES_H
#define CBL_DEVICE_BODIES_H

__device__ inline void __syncwarp(unsigned m) { __nvvm_bar_warp_sync(m); }
extern "C" __device__ inline int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
extern "C" __device__ inline int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
extern "C" __device__ inline int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__device__ inline void __threadfence(void) { __nvvm_membar_gl(); }
__device__ inline void __threadfence_block(void) { __nvvm_membar_cta(); }

#define CBL_ATOMIC_BODIES(T)                                                   \
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
CBL_ATOMIC_BODIES(int) CBL_ATOMIC_BODIES(unsigned) CBL_ATOMIC_BODIES(unsigned long long)
#undef CBL_ATOMIC_BODIES
__device__ inline float atomicAdd(float *p, float v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
__device__ inline double atomicAdd(double *p, double v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
__device__ inline unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
__device__ inline unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }

__device__ inline int abs(int a) { return a < 0 ? -a : a; }

#endif /* CBL_DEVICE_BODIES_H */
