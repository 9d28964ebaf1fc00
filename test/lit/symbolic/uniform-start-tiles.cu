// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// A tile loop whose counters start at values of the block (a = 16 *
// blockIdx.y, b = 16 * blockIdx.x) and whose stores do not read them: every
// iteration costs the same, so the stores are exact per execution, although
// which iterations run depends on the block (knn's distance kernel).
#define BLOCK_DIM 16
__global__ void tiles(const float *A, const float *B, int wA, int wB, int dim, float *out) {
  __shared__ float shared_A[BLOCK_DIM][BLOCK_DIM];
  __shared__ float shared_B[BLOCK_DIM][BLOCK_DIM];
  int tx = threadIdx.x, ty = threadIdx.y;
  int begin_A = BLOCK_DIM * blockIdx.y, begin_B = BLOCK_DIM * blockIdx.x;
  int end_A = begin_A + (dim - 1) * wA;
  float ssd = 0;
  for (int a = begin_A, b = begin_B; a <= end_A; a += BLOCK_DIM * wA, b += BLOCK_DIM * wB) {
    if (a / wA + ty < dim) {
      shared_A[ty][tx] = A[a + wA * ty + tx];
      shared_B[ty][tx] = B[b + wB * ty + tx];
    }
    __syncthreads();
    for (int k = 0; k < BLOCK_DIM; ++k)
      ssd += shared_A[k][ty] - shared_B[k][tx];
    __syncthreads();
  }
  out[ty * 16 + tx] = ssd;
}
// CHECK: tiles:16:7 st 4 exact 1-way 1/1
// CHECK: tiles:17:7 st 4 exact 1-way 1/1
void launch(const float *A, float *o, int w, int d) { tiles<<<dim3(4, 4), dim3(16, 16)>>>(A, A, w, w, d, o); }
