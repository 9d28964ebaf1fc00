// RUN: %cbl %s 2>&1 | %FileCheck %s
// A conflict inside a helper (a header's function, in real code) is reported
// at the helper's line; its one explaining note says which kernel and which
// call, since the offset uses the caller's values.
__device__ float column(const float *tile, int c) {
  return tile[threadIdx.x * 32 + c];
  // CHECK: helper-key-note.cu:[[@LINE-1]]:10: warning: 32-way bank conflict reading 'tile'
  // CHECK-NEXT: {{^ *}}6 | {{.*}}
  // CHECK-NEXT: {{^ *}}| {{.*}}
  // CHECK-NEXT: helper-key-note.cu:[[@LINE-4]]:10: note: byte offset in 'tile' = {{.*}} (in 'transposed' through the call at {{.*}}helper-key-note.cu:18; block 32x1x1 from the launch at {{.*}}helper-key-note.cu:21:25)
}

__global__ void transposed(float *out) {
  __shared__ float tile[32 * 32];
  for (int i = 0; i < 32; ++i)
    tile[i * 32 + threadIdx.x] = i;
  __syncthreads();
  out[threadIdx.x] = column(tile, 3);
}

void launch(float *o) { transposed<<<1, 32>>>(o); }
