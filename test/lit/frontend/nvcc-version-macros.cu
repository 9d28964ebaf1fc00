// nvcc defines __CUDACC_VER_MAJOR__, _MINOR__ and _BUILD__; Clang does not.
// Libraries test them to decide what to compile (CUTLASS's SM90 kernels and
// the host code that launches them sit under `__CUDACC_VER_MAJOR__ >= 12`), so
// the tool defines them from the toolkit's CUDA_VERSION, in both modes.
// REQUIRES: cuda-toolkit
// RUN: %cbl-any --cuda-mode=headers %s 2>&1 | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s
#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 12 || !defined(__CUDACC_VER_MINOR__)
#error "nvcc's version macros are missing"
#endif
__global__ void column(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x][0] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}
int main() { column<<<1, 32>>>(nullptr); }
// CHECK: nvcc-version-macros.cu:13:3: warning: 32-way bank conflict writing 's'
// CHECK: 1 file analysed
