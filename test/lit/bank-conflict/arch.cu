// --arch selects the bank rules. sm_70 and newer (measured on an H100): a
// linear double read is two conflict-free half-warp phases. The 8-byte bank
// mode of sm_3x and the 16 banks of sm_1x come from the CUDA programming
// guide and are not measured on hardware (docs/bank-model.md).
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=SM90 --implicit-check-not=warning:
// RUN: %cbl --explain --arch=sm_3x-8byte %s 2>&1 | %FileCheck %s --check-prefix=KEPLER --implicit-check-not=warning:
// RUN: %cbl --arch=sm_13 %s 2>&1 | %FileCheck %s --check-prefix=TESLA
// Only real compute capabilities are accepted (sm_999 has no bank rules).
// RUN: %expect-exit 2 %cbl --arch=sm_2x %s 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: %expect-exit 2 %cbl --arch=sm_999 %s 2>&1 | %FileCheck %s --check-prefix=BAD999
// RUN: %expect-exit 0 %cbl --arch=sm_90a %s
// RUN: %expect-exit 0 %cbl --arch=compute_120 %s
__global__ void doubles(double *o) {
  __shared__ double d[64];
  o[threadIdx.x] = d[threadIdx.x];
}
// SM90: arch.cu:[[# @LINE-2]]:20: remark: load of 8 bytes from 'd' in 'doubles' (d[threadIdx.x]): conflict-free, 2 wavefronts (ideal 2)
// KEPLER: arch.cu:[[# @LINE-3]]:20: remark: load of 8 bytes from 'd' in 'doubles' (d[threadIdx.x]): conflict-free, 1 wavefront (ideal 1)
// TESLA: arch.cu:[[# @LINE-4]]:20: warning: 2-way bank conflict reading 'd': 2 lanes of warp 0 read 2 distinct words of bank 0 in phase 0 of 2 (8 wavefronts, ideal 4)
// BAD: cuda-bank-lint: error: invalid --arch: unknown architecture 'sm_2x' (expected sm_XX or compute_XX for a CUDA compute capability (10-13, 20, 21,
// BAD999: cuda-bank-lint: error: invalid --arch: unknown architecture 'sm_999'
void launch(double *o) { doubles<<<1, 32>>>(o); }
