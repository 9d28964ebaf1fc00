// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A loaded value that only chooses the row of a lane's own column (per-thread
// counters count[bin][tid], entropy's sd_count[d_val[i]][idx]) moves the lane
// by whole rows of the 32 banks: its bank is the same whatever the data, and
// when no two lanes of a warp share a bank the access costs one wavefront for
// every value: exact. Where two lanes may share a bank (a column per two
// threads), or the value moves the lane within a row, the cost depends on the
// data and stays a data-dependent remark.

__global__ void bins(const unsigned char *in, int *out) {
  __shared__ int count[16][64];
  for (int i = 0; i < 16; i++)
    count[i][threadIdx.x] = 0;
  __syncthreads();
  for (int k = 0; k < 8; k++)
    count[in[threadIdx.x * 8 + k] & 15][threadIdx.x]++;
  __syncthreads();
  out[threadIdx.x] = count[threadIdx.x % 16][threadIdx.x];
}
// JSON: "byte_offset": "(in[threadIdx.x * 8 + k] & 15) * 256 + threadIdx.x * 4",
// JSON-NOT: "byte_offset"
// JSON: "ideal": 1,
// JSON-NOT: "byte_offset"
// JSON: "status": "exact",
// JSON-NOT: "byte_offset"
// JSON: "wavefronts": 1,

__global__ void shared_column(const unsigned char *in) {
  __shared__ int count[16][64];
  count[in[threadIdx.x]][threadIdx.x / 2]++;
  // CHECK: data-dependent-rows.cu:[[@LINE-1]]:3: remark: data-dependent cost reading 'count': on random values of 'in[threadIdx.x]' the 32 lanes of a warp expect 2.0 wavefronts per request (ideal 1)
  // CHECK: note: each lane's value drawn
}
// JSON: "byte_offset": "in[threadIdx.x] * 256 + (threadIdx.x >> 1) * 4",
// JSON-NOT: "byte_offset"
// JSON: "status": "data-dependent",

__global__ void within_row(const unsigned char *in) {
  __shared__ int count[16][64];
  count[threadIdx.x % 16][in[threadIdx.x]]++;
  // CHECK: data-dependent-rows.cu:[[@LINE-1]]:3: remark: data-dependent cost reading 'count': on random values of 'in[threadIdx.x]' the 32 lanes of a warp expect 3.3 wavefronts per request (ideal 1)
  // CHECK: note: each lane's value drawn
}
// JSON: "byte_offset": "(threadIdx.x & 15) * 256 + in[threadIdx.x] * 4",
// JSON-NOT: "byte_offset"
// JSON: "status": "data-dependent",

// Wider than a word: two lanes of one 8-byte access share a bank pair, the
// rule is not used.
__global__ void wide(const unsigned char *in) {
  __shared__ double sum[16][64];
  sum[in[threadIdx.x] & 15][threadIdx.x] += 1.0;
}
// JSON: "byte_offset": "(in[threadIdx.x] & 15) * 512 + threadIdx.x * 8",
// JSON-NOT: "byte_offset"
// JSON: "status": "data-dependent",

int main() {
  bins<<<1, 64>>>(nullptr, nullptr);
  shared_column<<<1, 64>>>(nullptr);
  within_row<<<1, 64>>>(nullptr);
  wide<<<1, 64>>>(nullptr);
}
