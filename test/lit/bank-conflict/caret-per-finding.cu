// Each finding keeps its caret, as Clang's printer does: two findings at
// different columns of one source line each show the line with their own
// caret (the second is not printed as a bare message line); only a finding
// at the very place the previous one showed skips the source.
// RUN: %cbl %s 2>&1 | %FileCheck %s --match-full-lines --strict-whitespace

__global__ void scan(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
}

void launch(float *o) { scan<<<1, dim3(32, 32)>>>(o); }

// CHECK:{{.*}}caret-per-finding.cu:11:22: warning: 32-way bank conflict reading 'tile': {{.*}}
// CHECK-NEXT:   11 |   out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
// CHECK-NEXT:      |                      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:{{.*}}caret-per-finding.cu:11:22: note: byte offset in 'tile' = {{.*}}
// CHECK-NEXT:{{.*}}caret-per-finding.cu:8:20: note: fix-it: pad 'tile' to 'tile[32][32 + 1]' {{.*}}
// CHECK-NEXT:{{.*}}caret-per-finding.cu:11:55: warning: 32-way bank conflict reading 'tile': {{.*}}
// CHECK-NEXT:   11 |   out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
// CHECK-NEXT:      |                                                       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:{{.*}}caret-per-finding.cu:11:55: note: byte offset in 'tile' = {{.*}}
// CHECK-NEXT:{{.*}}caret-per-finding.cu:8:20: note: fix-it: the same as at line 11
