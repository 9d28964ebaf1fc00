// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s --check-prefix=REC
// A __device__ helper that takes the tile as an array parameter (T tile[K][Y]
// is T (*)[Y]) and indexes it with braced size_t locals: the compiler inlines
// it and the store is plain arithmetic on threadIdx, with the row stride of
// the declaration (so padding is evaluated too).
template <typename T, int K, int Y>
__device__ void storeTransposed(T tile[K][Y], const T *in, int n) {
  size_t const i{threadIdx.x};
  size_t const j{threadIdx.y};
  tile[i][j] = in[j * n + i];
}

template <typename T, int K, int Y>
__device__ T loadRow(T const (&tile)[K][Y]) {
  return tile[threadIdx.y][threadIdx.x];
}

__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[32][32];
  storeTransposed<float, 32, 32>(tile, in, n);
  // CHECK: array-parameter-helpers.cu:[[# @LINE-11]]:3: warning: 32-way bank conflict writing 'tile': 32 lanes of warp 0 write 32 distinct words of bank 0 (32 wavefronts, ideal 1)
  // CHECK: note: byte offset in 'tile' = threadIdx.x * 128 + threadIdx.y * 4
  // CHECK: array-parameter-helpers.cu:[[# @LINE-3]]:3: note: in 'storeTransposed<float, 32, 32>' as called from 'transpose' here
  // CHECK: note: fix-it: pad 'tile' to 'tile[32][32 + 1]' (verified for the block shapes considered: this access conflict-free ({{[0-9]+}} wavefront{{s?}} instead of {{[0-9]+}})
  __syncthreads();
  out[threadIdx.y * n + threadIdx.x] = loadRow<float, 32, 32>(tile);
}

int main() { transpose<<<dim3(32, 32), dim3(32, 8)>>>(nullptr, nullptr, 1024); }

// REC: transpose:11:3 st 4 exact 32-way 32/1
// REC: transpose:16:10 ld 4 exact 1-way 1/1
