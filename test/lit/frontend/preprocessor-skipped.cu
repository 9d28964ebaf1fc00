// Never silent about code the preprocessor removed: a kernel under a
// condition that Clang's configuration leaves false (CUTLASS compiles its
// SM100 kernels out under Clang) is not compiled, so not analysed; each file
// of the user's (the main file, its own headers; not system headers) that
// has kernels in skipped regions gets one note naming them and the
// directives. `__global__` in comments, string literals and directives of a
// skipped region is no kernel.
// RUN: %cbl %s -- -I %S/Inputs/skipped -isystem %S/Inputs/skipped/sys 2>&1 | %FileCheck %s --implicit-check-not=library_kernel --implicit-check-not=commented --implicit-check-not=quoted --implicit-check-not=macro_kernel
// RUN: %cbl --format=json %s -- -I %S/Inputs/skipped -isystem %S/Inputs/skipped/sys 2>/dev/null | %FileCheck %s --check-prefix=JSON
#include "user_kernels.cuh"
#include <library_kernels.cuh>

// CHECK-DAG: user_kernels.cuh:3:1: note: kernel 'header_kernel' is in code the preprocessor skipped (#ifdef USER_HEADER_FAST_PATH at line 3); the tool analyses what the compiler compiles

// CHECK-DAG: preprocessor-skipped.cu:[[# @LINE+1]]:1: note: 3 kernels ('gemm_device', 'tma_kernel', 'fallback') are in code the preprocessor skipped (#if defined(ARCH_SM100_SUPPORTED) && !defined(__clang__) at line [[# @LINE+1]], #else at line [[# @LINE+21]]); the tool analyses what the compiler compiles
#if defined(ARCH_SM100_SUPPORTED) && !defined(__clang__)
__global__ void gemm_device(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[31 - threadIdx.x];
}
template <class T>
__global__ static void __launch_bounds__(128)
tma_kernel(T *out) {}
#endif

#if 0
// __global__ void commented(float *);
const char *Text = "__global__ void quoted()";
#define KERNEL __global__ void macro_kernel()
#endif

#define HAVE_FAST 1
#if HAVE_FAST
__global__ void compiled(float *out) { out[threadIdx.x] = 1; }
#else
__global__ void fallback(float *out) { out[threadIdx.x] = 2; }
#endif

void launch(float *o) { compiled<<<1, 32>>>(o); }

// JSON: "notes": [
// JSON: "message": "3 kernels ('gemm_device', 'tma_kernel', 'fallback') are in code the preprocessor skipped
