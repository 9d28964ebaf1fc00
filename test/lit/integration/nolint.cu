// clang-tidy's suppression comments, applied to findings by source line.
// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// Every kernel has the same 32-way column read; only the unsuppressed ones warn.

__global__ void plain(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK: nolint.cu:[[@LINE-1]]:22: warning: 32-way bank conflict
}

__global__ void sameLine(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y]; // NOLINT
}

__global__ void namedCheck(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y]; // NOLINT(cuda-shared-bank-conflict)
}

__global__ void otherCheck(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y]; // NOLINT(cuda-barrier-divergence)
  // CHECK: nolint.cu:[[@LINE-1]]:22: warning: 32-way bank conflict
}

__global__ void nextLine(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  // NOLINTNEXTLINE(cuda-shared-*)
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

// NOLINTBEGIN(cuda-*)
__global__ void region(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
// NOLINTEND(cuda-*)

__global__ void afterRegion(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 0;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y]; // NOLINTfoo is not a suppression
  // CHECK: nolint.cu:[[@LINE-1]]:22: warning: 32-way bank conflict
}

void launch(float *o) {
  dim3 b(32, 32);
  plain<<<1, b>>>(o); sameLine<<<1, b>>>(o); namedCheck<<<1, b>>>(o); otherCheck<<<1, b>>>(o);
  nextLine<<<1, b>>>(o); region<<<1, b>>>(o); afterRegion<<<1, b>>>(o);
}
// CHECK: 1 file analysed, {{[0-9]+ shared access.*}}, 3 warnings, 0 errors
