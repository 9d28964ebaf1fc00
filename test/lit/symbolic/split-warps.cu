// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// After an atomic retry loop (it goes round again depending on what an
// atomic returned) the lanes of a warp leave at different times and, measured
// on an H100, run on apart until the next block barrier: the accesses there
// take several instructions of a few lanes each. Their cost is not exact; the
// whole warp's cost is the most one instruction can cost (status bound).

__device__ void addRetry(unsigned *addr, unsigned v) {
  unsigned old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, assumed + v);
  } while (old != assumed);
}

// The next iterations of the enclosing loop start apart.
__global__ void retryInLoop(unsigned *out, int n) {
  __shared__ float acc[2048];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float a = acc[2 * i];
    addRetry(&out[i], unsigned(a));
  }
}
// CHECK: split-warps.cu:[[@LINE-4]]:15: warning: 2-way bank conflict reading 'acc'
// CHECK: note: the lanes of a warp may run it apart: they leave the atomic retry loop at split-warps.cu:11 at different times and do not run together again before the next block barrier; the cost shown is the whole warp's, the most one instruction of it can cost
// JSON: "expression": "acc[2 * i]",
// JSON: "reason": "the lanes of a warp may run it apart
// JSON: "status": "bound",

// Straight-line code after a spin lock, until the barrier.
__global__ void afterSpinLock(int *lock, int *out) {
  __shared__ int s[256];
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
// JSON: "expression": "s[threadIdx.x]",
// JSON: "reason": "the lanes of a warp may run it apart: they leave the atomic retry loop at split-warps.cu:34
// JSON: "status": "bound",
// JSON: "expression": "s[threadIdx.x]",
// JSON-NOT: "reason": "the lanes
// JSON: "status": "exact",

// A loop whose lanes stop at different times but not because of what an
// atomic returned (a block-stride loop of atomics) is not a retry loop.
__global__ void histogram(const int *data, int n, int *out) {
  __shared__ int bins[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&out[data[i] & 255], 1);
  bins[threadIdx.x] = 0;
  out[threadIdx.x] = bins[threadIdx.x];
}
// JSON: "expression": "bins[threadIdx.x]",
// JSON-NOT: "reason": "the lanes
// JSON: "status": "exact",

int main() {
  retryInLoop<<<1, 128>>>(nullptr, 1000);
  afterSpinLock<<<1, 256>>>(nullptr, nullptr);
  histogram<<<1, 256>>>(nullptr, 0, nullptr);
}
