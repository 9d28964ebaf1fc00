// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A loop that runs on constants alone (its counters start at constants, and
// its condition and updates read only its counters) leaves them at values
// the tool computes: the down-sweep of a Blelloch scan starts from the
// `offset` the up-sweep left (N), so both sweeps are exact. Variables
// declared inside a loop body are not carried by the loop.
#define OFFSET(n) ((n) >> 5)

template <int N>
__global__ void scanPadded(long nblocks, int *out) {
  __shared__ int temp[2 * N];
  for (long bid = blockIdx.x; bid < nblocks; bid += gridDim.x) {
    int thid = threadIdx.x;
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
      __syncthreads();
      if (thid < d) {
        int ai = offset * (2 * thid + 1) - 1;
        int bi = offset * (2 * thid + 2) - 1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }
    for (int d = 1; d < N; d *= 2) {
      offset >>= 1;
      __syncthreads();
      if (thid < d) {
        int ai = offset * (2 * thid + 1) - 1;
        int bi = offset * (2 * thid + 2) - 1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        int t = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += t;
      }
    }
    out[thid] = offset;
  }
}

// The same without the padding: the down-sweep's conflicts, per iteration.
template <int N>
__global__ void scan(int *out) {
  __shared__ int temp[N];
  int thid = threadIdx.x;
  int offset = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d)
      temp[offset * (2 * thid + 2) - 1] += temp[offset * (2 * thid + 1) - 1];
    offset *= 2;
  }
  for (int d = 1; d < N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int t = temp[ai];
      temp[ai] = t + 1;
    }
  }
}
// CHECK-NOT: scanPadded
// Both loops are unrolled (a record per copy, the worst copy reported):
// CHECK: loop-exit-values.cu:53:7: warning: 8-way bank conflict reading 'temp' in 'scan<256>'
// CHECK: loop-exit-values.cu:61:15: warning: 8-way bank conflict reading 'temp' in 'scan<256>': 8 lanes of warp 0 read 8 distinct words of bank 15 (8 wavefronts, ideal 1)
// CHECK: 1 file analysed, 100 shared accesses (100 exact), 4 warnings, 0 errors
// JSON-NOT: "status": "unknown"

int main() {
  scanPadded<256><<<1, 128>>>(4, nullptr);
  scan<256><<<1, 128>>>(nullptr);
}
