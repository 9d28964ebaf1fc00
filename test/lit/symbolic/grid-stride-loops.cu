// A loop the same for every lane whose counter the access does not read (a
// grid-stride or persistent-block loop around the shared-memory code) is not
// run: each of its iterations costs the same, so the access is analysed once,
// exactly, with the loops inside enumerated as usual. The block sums are then
// per iteration of that loop (block_iterations 0) and the verdict holds for
// every value of its counter.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
template <int N>
__global__ void gridScan(const long long nblocks, float *out) {
  __shared__ float temp[N];
  for (long long bid = blockIdx.x; bid < nblocks; bid += gridDim.x) {
    int thid = threadIdx.x;
    temp[thid] = out[bid * N + thid];
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
      __syncthreads();
      if (thid < d) {
        int ai = offset * (2 * thid + 1) - 1;
        int bi = offset * (2 * thid + 2) - 1;
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }
    __syncthreads();
    out[bid * N + thid] = temp[thid];
  }
}
// CHECK: gridScan<256>:15:5 st 4 exact 1-way 1/1
// CHECK: gridScan<256>:22:9 ld 4 exact 8-way 8/1
// CHECK: gridScan<256>:22:9 st 4 exact 8-way 8/1
// CHECK: gridScan<256>:22:21 ld 4 exact 8-way 8/1
// CHECK: gridScan<256>:27:27 ld 4 exact 1-way 1/1
// JSON: "block_iterations": 0,
// JSON: "parameters": [
// JSON-NEXT: "bid"
// The d loop is unrolled: the worst of its copies, the same in every
// iteration of the grid-stride loop.
// TEXT: grid-stride-loops.cu:22:21: warning: 8-way bank conflict reading 'temp' in 'gridScan<256>': 8 lanes of warp 0 read 8 distinct words of bank 3 (8 wavefronts, ideal 1) in every iteration
void launch(float *o, long long n) { gridScan<256><<<2, 128>>>(n, o); }
