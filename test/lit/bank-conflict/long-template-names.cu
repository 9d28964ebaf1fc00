// A kernel template instance whose name runs longer than a line (CuTe's run
// to 1,500 characters): the warning names it with its nested argument lists
// elided; --explain and JSON give the whole name.
// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
template <class... T> struct tuple {};
template <int N> struct C {};
template <class Shape, class Stride> struct Layout {};

template <class L>
__global__ void column_read(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][0];
}

using Long = Layout<tuple<C<32>, C<32>, C<1>>, tuple<tuple<C<1>, C<32>>, C<0>, C<1024>>>;
int main() { column_read<Long><<<1, 32>>>(nullptr); }

// CHECK: long-template-names.cu:16:22: warning: 32-way bank conflict reading 's' in 'column_read<Layout<...>>': 32 lanes
// EXPLAIN: note: 'column_read<Layout<...>>' is 'column_read<Layout<tuple<C<32>, C<32>, C<1>>, tuple<tuple<C<1>, C<32>>, C<0>, C<1024>>>>'
// JSON: "function": "column_read<Layout<tuple<C<32>, C<32>, C<1>>, tuple<tuple<C<1>, C<32>>, C<0>, C<1024>>>>"
