// RUN: %cbl --format=json %s | %FileCheck %s
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// A launch whose block size is a variable takes its value from the branch
// it is in: if (block_size == 16) (matrixMul), case 512: of switch (threads)
// (the reduction samples). Not from an else branch, nor from a case that
// another label shares or falls into.
template <int B> __global__ void mm(float *o) {
  __shared__ float As[B][B];
  As[threadIdx.y][threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = As[threadIdx.x][threadIdx.y];
}
template <unsigned N> __global__ void reduce(float *o) {
  __shared__ float s[N];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = s[2 * threadIdx.x % N];
}
void run(float *o, int block_size, int threads) {
  dim3 t(block_size, block_size);
  if (block_size == 16) {
    mm<16><<<1, t>>>(o);
  } else {
    mm<32><<<1, t>>>(o);
  }
  dim3 b(threads, 1, 1);
  switch (threads) {
  case 512:
    reduce<512><<<1, b>>>(o);
    break;
  case 64:
    reduce<64><<<1, b>>>(o);
    break;
  case 32:
  case 16:
    reduce<32><<<1, b>>>(o);
    break;
  }
}
// Two branches: their facts in the order the variables are declared.
template <int K> __global__ void tri(float *o) {
  __shared__ float s[K][33];
  s[threadIdx.y][threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x % K][threadIdx.y];
}
void runTri(float *o, int n, int k) {
  dim3 t(32, k);
  if (n == 64) {
    switch (k) {
    case 8:
      tri<8><<<1, t>>>(o);
      break;
    }
  }
}
// CHECK: "block_dim": [
// CHECK-NEXT: 16,
// CHECK-NEXT: 16,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "block_dim_note": "from the launch at {{.*}}branch-launches.cu:22:5, in the branch where 'block_size' is 16",
// CHECK-NEXT: "block_dim_source": "launch",
// CHECK: "function": "mm<32>",
// CHECK: "block_dim_source": "assumed",
// CHECK: "block_dim_note": "from the launch at {{.*}}branch-launches.cu:29:5, in the branch where 'threads' is 512",
// CHECK: "block_dim_note": "from the launch at {{.*}}branch-launches.cu:32:5, in the branch where 'threads' is 64",
// CHECK: "function": "reduce<32U>",
// CHECK: "block_dim_source": "assumed",
// CHECK: "block_dim_note": "from the launch at {{.*}}branch-launches.cu:{{[0-9]+}}:7, in the branch where 'n' is 64 and 'k' is 8",
// CHECK-NEXT: "block_dim_source": "launch",
// CHECK: "function": "tri<8>",
// TEXT: branch-launches.cu:11:20: warning: 32-way bank conflict reading 'As' in 'mm<32>'
// TEXT: branch-launches.cu:22:5: note: also reading: 8-way (8 wavefronts, ideal 1) in 'mm<16>' with block 16x16x1
