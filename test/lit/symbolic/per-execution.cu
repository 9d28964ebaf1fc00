// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// RUN: %cbl %s 2>&1 | %FileCheck %s
// A loop whose trip count is a run-time value: which iterations run is not
// known, but when every iteration that may run costs the same the cost is
// exact per execution (status bound, per_execution true); when iterations
// differ it is the worst over them (per_execution false).

// Three buffers rotated every iteration (previous, current, next), the loop
// bound shorter in the grid's last block: the counters repeat every 3
// iterations, each costing the same. Rows past the last one return early
// (whole warps at 32x8).
__global__ void rotating(float *out, int n) {
  __shared__ float s[3][32][32];
  int p = 0, c = 1, q = 2;
  float a = 0;
  int lastY = blockIdx.y == gridDim.y - 1 ? n - 8 * blockIdx.y : 8;
  if (threadIdx.y >= lastY)
    return;
  int last = blockIdx.x == gridDim.x - 1 ? n - 20 * blockIdx.x : 21;
  for (int i = 1; i < last; ++i) {
    s[q][threadIdx.y][threadIdx.x] = i;
    __syncthreads();
    a += s[c][threadIdx.x][threadIdx.y];
    // CHECK: per-execution.cu:[[@LINE-1]]:10: warning: 32-way bank conflict reading 's'
    // CHECK: note: {{.*}}; exact per execution, how many run is not known (--explain says why)
    int t = p; p = c; c = q; q = t;
    __syncthreads();
  }
  out[threadIdx.x] = a;
}

// The stride changes after the first iteration: conflict-free, then 2-way.
__global__ void alternating(float *out, unsigned n) {
  __shared__ float s[4096];
  float a = 0;
  unsigned offset = 1;
  for (int d = (n >> 1); d > 0; d >>= 1) {
    a += s[threadIdx.x * (offset & 1 ? 1 : 2) + (offset & 31) * 64];
    // CHECK: per-execution.cu:[[@LINE-1]]:10: warning: up to 2-way bank conflict reading 's'
    // CHECK: note: {{.*}}; an upper bound (--explain says why)
    offset <<= 1;
  }
  out[threadIdx.x] = a;
}

int main(int argc, char **) {
  rotating<<<1, dim3(32, 8)>>>(0, argc);
  alternating<<<1, 32>>>(0, argc);
}

// JSON: "function": "rotating",
// JSON: "per_execution": true,
// JSON: "reason": "which loop iterations run depends on 'blockIdx.x', 'gridDim.x', 'n'; every iteration that may run costs the same: the cost shown is exact per execution, how many executions is not known",
// JSON: "status": "bound",
// JSON: "function": "alternating",
// JSON: "per_execution": false,
// JSON: "status": "bound",
