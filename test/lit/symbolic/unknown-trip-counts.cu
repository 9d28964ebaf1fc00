// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='remark: possible'
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// Loops whose trip count is a runtime value, and products of runtime values.
// - A block-stride loop (i = threadIdx.x; i < n; i += blockDim.x): in
//   iteration k the counter is threadIdx.x + k * blockDim.x, so every
//   iteration has the same pattern shifted by whole words; which lanes run the
//   last one depends on n (exact for warps whose lanes all pass; note).
// - A counter that starts at a runtime value (d = n >> 1) stays symbolic
//   while the other counters of the loop (offset <<= 1) are enumerated; lanes
//   that would index outside the array cannot run a correct program's
//   iteration, so they are left out of the worst case.
// - Products of warp-uniform values (blockIdx.x * blockDim.x * stride) are
//   uniform terms of their own; non-linear uniform values (n / 2) are opaque
//   uniform terms.

__global__ void blockStride(int n) {
  __shared__ int s[1024];
  __shared__ int s2[2048];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[i] = 0;
    s2[2 * i] = 1;
  }
}
// CHECK: unknown-trip-counts.cu:21:5: warning: 2-way bank conflict writing 's2': 2 lanes of warp 0 write 2 distinct words of bank 0
// CHECK: note: the cost of the warps whose lanes all pass the conditions on 'n'; a warp at the boundary runs it with fewer lanes and costs at most this
// JSON: "expression": "s[i]",
// JSON: "parameters": [
// JSON-NEXT: "iteration@19"
// JSON: "status": "exact",
// JSON: "degree": 2,
// JSON: "expression": "s2[2 * i]",

__global__ void rowsOfUnknownPitch(int width, int pitch) {
  extern __shared__ unsigned char rows[];
  short ib;
  int base = threadIdx.y * pitch;
  for (ib = threadIdx.x; ib < width; ib += blockDim.x)
    rows[base + 4 * ib] = 0;
}
// A short counter, kept shifted into an int's high half (ib << 16) by the
// compiler: its 16-bit wrap is not followed (a known gap; rowsOfIntPitch at
// the end is the same loop with an int counter).
// JSON: "expression": "rows[base + 4 * ib]",
// JSON: "status": "unknown",

__global__ void uniformProducts(const int *strides, int *out) {
  __shared__ unsigned data[4096];
  const int stride = strides[0];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = data[tid * stride];
}
// CHECK: unknown-trip-counts.cu:50:14: remark: possible bank conflict reading 'data': 32-way when 'strides[0]' is a multiple of 32; 16-way when 'strides[0]' mod 32 is 16; 8-way when 'strides[0]' mod 16 is 8; 4-way when 'strides[0]' mod 8 is 4; 2-way when 'strides[0]' mod 4 is 2, except 'strides[0]' = 0 (conflict-free)

__global__ void opaqueUniform(int n, int *out) {
  __shared__ int s[1024];
  out[threadIdx.x] = s[threadIdx.x + n / 2];
}
// JSON: "expression": "s[threadIdx.x + n / 2]",
// JSON: "parameters": [
// JSON-NEXT: "(n / 2)"
// JSON: "status": "exact",

__global__ void scanUnknownLength(unsigned n) {
  __shared__ unsigned s[257];
  unsigned *list = s + 1;
  unsigned offset = 1;
  const unsigned tid = threadIdx.x;
  for (int d = (n >> 1); d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned bi = offset * (2 * tid + 2) - 1;
      list[bi] += 1;
    }
    offset <<= 1;
  }
}
// CHECK: unknown-trip-counts.cu:72:7: warning: up to 8-way bank conflict reading 's' through 'list':
// CHECK: note: per case: 2-way at offset=1, 4-way at offset=2, 8-way at offset=4, 8-way at offset=8 (16 lanes active), 8-way at offset=16 (8 lanes active), 4-way at offset=32 (4 lanes active), 2-way at offset=64 (2 lanes active), conflict-free at offset=128 (1 lane active){{$}}
// CHECK: note: which loop iterations run depends on 'n'; the cost shown is the worst over every iteration that may run (lanes that would access outside 's' in an iteration are assumed not to run it)
// CHECK: note: the cost of the warps whose lanes all pass the conditions on 'd before its update'
// CHECK: note: also writing: up to 8-way

// Two rows of 16 lanes per warp, 'pitch' bytes apart (rows 2 and 3 of warp 1
// at 2 and 3 pitches): conflicts unless the rows land in disjoint banks or
// share the words; the pattern repeats every 128 bytes of 'pitch'.
__global__ void rowsOfIntPitch(int width, int pitch) {
  extern __shared__ unsigned char rows[];
  int base = threadIdx.y * pitch;
  for (int ib = threadIdx.x; ib < width; ib += blockDim.x)
    rows[base + 4 * ib] = 0;
}
// CHECK: unknown-trip-counts.cu:[[# @LINE-2]]:5: remark: possible bank conflict writing 'rows': 2-way when 'pitch' mod 128 is not 64, 65 nor 66, except 'pitch' = 0-63 (conflict-free) (for 'pitch' >= 0)
// CHECK: note: the cost of the warps whose lanes all pass the conditions on 'width'

void launch(const int *p, int *o, int n, int m) {
  blockStride<<<1, 128>>>(n);
  rowsOfUnknownPitch<<<1, dim3(16, 4), 4096>>>(n, m);
  rowsOfIntPitch<<<1, dim3(16, 4), 4096>>>(n, m);
  uniformProducts<<<4, 32>>>(p, o);
  opaqueUniform<<<1, 64>>>(n, o);
  scanUnknownLength<<<1, 128>>>(m);
}

