// Kernels whose shared memory the tool sees but cannot model, for the
// summary and --strict: calls without a body (two kernels, one of them a
// template instantiated twice), inline PTX, and an address laundered through
// global memory (no access recognised); 'fine' is modelled. Below it, more.
__device__ void opaque(float *);

template <int N> __global__ void staged(float *out) {
  __shared__ float s[N];
  opaque(s + threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void helper(float *out) {
  __shared__ float s[64];
  opaque(s);
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(s)) + threadIdx.x * 128;
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%0,%1}, [%2];"
               : "=r"(r0), "=r"(r1) : "r"(a));
  out[threadIdx.x] = s[threadIdx.x] + r0 + r1;
}

template <int N> __global__ void laundered(float *out, float **slot) {
  __shared__ float s[N];
  slot[threadIdx.x] = s + threadIdx.x;
  *slot[threadIdx.x ^ 1] = 1.0f;
  out[threadIdx.x] = 0;
}

__global__ void fine(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[threadIdx.x];
}

// An index by an operation the engine does not model (__popc), an index
// updated non-linearly in a loop with a run-time bound, and a __shared__
// object with a constructor (Clang does not compile it).
__global__ void popcIndex(float *out) {
  __shared__ float s[64];
  s[__popc(threadIdx.x)] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}

__global__ void squares(float *out, int n) {
  __shared__ float s[1024];
  int p = threadIdx.x;
  for (int i = 0; i < n; ++i)
    p = (p * p + i) % 1024;
  s[p] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

struct Counter {
  __device__ Counter() : n(0) {}
  int n;
};
__global__ void constructed(float *out) {
  __shared__ Counter c;
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(float *o, float **p, int n) {
  popcIndex<<<1, 64>>>(o);
  squares<<<1, 64>>>(o, n);
  constructed<<<1, 64>>>(o);
  staged<32><<<1, 32>>>(o);
  staged<64><<<1, 64>>>(o);
  helper<<<1, 64>>>(o);
  laundered<32><<<1, 32>>>(o, p);
  laundered<64><<<1, 64>>>(o, p);
  fine<<<1, 64>>>(o);
}
