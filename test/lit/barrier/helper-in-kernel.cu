// RUN: %expect-exit 2 %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A helper's barriers are judged inside the kernels that call it, with the
// actual arguments. kern<64, true> returns before its call to
// process<64, true>, so Clang emits no call: that instantiation of the helper
// exists only in the source. Analysed on its own, its parameters would be
// thread-varying (start, stop: a loop counter different in each thread);
// in the kernel they are block-uniform.
// CHECK: error: kernel 'rejected' not analysed

template <int N, bool Scaled>
__device__ void process(float *s, const float *in, int start, int stop) {
  int k = start;
  for (; k < stop - 1; ++k) {
    s[threadIdx.x] = in[(long)k * N + threadIdx.x] * (Scaled ? 2.0f : 1.0f);
    __syncthreads();
  }
}

template <int N, bool Scaled>
__global__ void kern(const float *in, float *out, int n) {
  if (Scaled && N != 128)
    return; // this combination is not built
  __shared__ float s[N];
  const int start = blockIdx.x * n;
  process<N, Scaled>(s, in, start, start + n);
  out[threadIdx.x] = s[threadIdx.x];
}

template __global__ void kern<64, false>(const float *, float *, int);
template __global__ void kern<64, true>(const float *, float *, int);

// In a kernel, a thread-varying argument still makes the helper's barrier
// divergent (judged at the call, with the argument).
template <int N>
__global__ void uneven(const float *in, float *out) {
  __shared__ float s[N];
  process<N, false>(s, in, 0, threadIdx.x % 4);
// CHECK: helper-in-kernel.cu:[[@LINE-1]]:3: warning: call to 'process<64, false>', which executes a block barrier, {{.*}}divergent
  out[threadIdx.x] = s[threadIdx.x];
}
template __global__ void uneven<64>(const float *, float *);

// The only kernel that calls this helper is rejected by Clang: the helper is
// judged on its own, its parameters thread-varying.
__device__ void alone(float *s, const float *in, int start, int stop) {
  for (int k = start; k < stop - 1; ++k) {
    s[threadIdx.x] = in[(long)k * 32 + threadIdx.x];
    __syncthreads();
// CHECK: helper-in-kernel.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: it is in a loop whose number of iterations can differ between threads
  }
}

__global__ void rejected(const float *in, float *out, int n) {
  __shared__ float s[32];
  alone(s, in, blockIdx.x * n, blockIdx.x * n + n);
  out[threadIdx.x] = s[threadIdx.x] + not_declared;
}
