// RUN: %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// Floating-point locals are tracked for uniformity: a residual read by every
// thread from the same address (the conjugate-gradient loop of NVIDIA's
// samples) keeps the loop uniform; a per-thread value does not.

__global__ void conjugateGradientLoop(const double *dot, double tol, int maxIter) {
  double r1 = *dot;
  int k = 1;
  while (r1 > tol * tol && k <= maxIter) {
    __syncthreads();
    r1 = *dot;
    k++;
  }
}

__global__ void perThreadValue(const float *x) {
  float v = x[threadIdx.x] * 2.0f;
  if (v > 0.5f)
    __syncthreads();
}
// CHECK: float-uniformity.cu:[[# @LINE-2]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'v > 0.5f'
