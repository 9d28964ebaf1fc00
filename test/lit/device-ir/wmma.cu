// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// WMMA fragment loads and stores on shared memory are the instructions nvcc
// emits for them (BankModel/Wmma.h, measured: test/data/h100-wmma.csv): a
// 16-bit A fragment is one LDSM.x4 over 16 rows of 32 bytes, so a leading
// dimension of 64 halves (128 bytes) puts 8 rows on the same banks and 72
// does not; an f32 accumulator row-major is four LDS.64, column-major eight
// LDS.32/STS.32.
#include <mma.h>
using namespace nvcuda;

__global__ void fragments(float *out) {
  __shared__ __align__(32) __half a[16 * 72];
  __shared__ __align__(32) float c[16 * 20];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> f64, f72;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(f64, a, 64);
  wmma::load_matrix_sync(f72, a, 72);
  wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(c, acc, 20, wmma::mem_col_major);
  out[threadIdx.x] = acc.x[0];
}

int main() { fragments<<<1, 32>>>(nullptr); }

// CHECK: fragments:17:3 ld 16 exact 8-way 32/4
// CHECK: fragments:18:3 ld 16 exact 1-way 4/4
// CHECK-COUNT-4: fragments:19:3 ld 8 exact 2-way 4/2
// CHECK-COUNT-8: fragments:20:3 st 4 exact 1-way 1/1
// TEXT: wmma.cu:17:3: warning: 8-way bank conflict in 'load_matrix_sync of a f16 A fragment (row-major)' reading 'a'
// TEXT: wmma.cu:19:3: warning: 2-way bank conflict in 'load_matrix_sync of a f32 accumulator fragment (row-major)' reading 'c'
