// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// The expected cost on random data when the address also uses other
// unknowns: estimated at several of their values (0 to 31) and stated only
// when it is the same at each (a loop counter added to a masked key, a
// shift of random bits); not where it depends on them (k % nb: one bin or
// a thousand). The elements of a loaded vector (uint4 keys) are values of
// their own, also when a loop carries the vector.

__global__ void counters(const unsigned *keys, unsigned *out, int n, int nb) {
  __shared__ unsigned bins[1024];
  bins[threadIdx.x] = 0;
  __syncthreads();
  unsigned k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned s = 0;
  for (int r = 0; r < n; ++r)
    s += bins[(k + r) & 255];
  // CHECK: data-dependent-unknowns.cu:[[@LINE-1]]:10: remark: data-dependent cost reading 'bins': on random values of 'keys[blockIdx.x * blockDim.x + threadIdx.x]' the 32 lanes of a warp expect 3.1 wavefronts per request (ideal 1), up to 8 when the values collide in one bank
  // CHECK: note: {{.*}} (500 random warps, seeded), the same at every value of 'r' tried (0 to 31); sorted or clustered data costs less or more
  atomicAdd(&bins[k % nb], 1);
  out[threadIdx.x] = s + bins[threadIdx.x];
}

__global__ void vectors(const uint4 *keys, unsigned *out, int n) {
  __shared__ unsigned bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  uint4 k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  for (int r = 0; r < n; ++r) {
    atomicAdd(&bins[k.x & 255], 1);
    // CHECK: data-dependent-unknowns.cu:[[@LINE-1]]:5: remark: data-dependent cost in 'atomicAdd' on 'bins': on random values of 'k.x' the 32 lanes of a warp expect 3.1 wavefronts per request (ideal 1), up to 8 when the values collide in one bank
    atomicAdd(&bins[(k.w >> 3) & 255], 1);
    // CHECK: data-dependent-unknowns.cu:[[@LINE-1]]:5: remark: data-dependent cost in 'atomicAdd' on 'bins': on random values of 'k.w' the 32 lanes
    k.x = bins[k.y & 255];
    // CHECK: data-dependent-unknowns.cu:[[@LINE-1]]:11: remark: data-dependent cost reading 'bins': on random values of 'k.y'
    k.w = k.z ^ k.x;
  }
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x];
}

void launch(const unsigned *k, const uint4 *k4, unsigned *o, int n) {
  counters<<<1, 256>>>(k, o, n, n);
  vectors<<<1, 256>>>(k4, o, n);
}

// JSON:      "byte_offset": "(r + keys[blockIdx.x * blockDim.x + threadIdx.x] & 255) * 4",
// JSON:      "random_data": {
// JSON-NEXT:   "draw": "loaded-values",
// JSON-NEXT:   "expected_ideal": 1,
// JSON-NEXT:   "expected_wavefronts": 3.1{{[0-9]*}},
// JSON-NEXT:   "lanes": 32,
// JSON-NEXT:   "regardless_of": [
// JSON-NEXT:     "r"
// JSON-NEXT:   ],
// k % nb: data-dependent, no estimate.
// JSON:      "byte_offset": "keys[blockIdx.x * blockDim.x + threadIdx.x] % nb * 4",
// JSON-NOT:  "random_data"
// JSON:      "status": "data-dependent",
