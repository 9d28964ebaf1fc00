// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// Loop bounds and strides the compiler folds: constexpr functions of template
// arguments, integral-constant classes with conversion operators (as CuTe's
// C<N>), and a bound computed by a helper. Each loop is unrolled or counted
// in the device IR, and every access is exact.
template <int V> struct C {
  static constexpr int value = V;
  constexpr operator int() const { return V; }
};
template <int A, int B> constexpr C<A * B> operator*(C<A>, C<B>) { return {}; }
template <int N> constexpr int tilesOf() { return (N + 31) / 32; }
__device__ int rowsOf(int n) { return n > 64 ? 64 : n; }

template <int N>
__global__ void bounds(float *out, int n) {
  __shared__ float s[64][33];
  __shared__ float t[1024];
  for (int k = 0; k < tilesOf<N>(); ++k)
    s[k][threadIdx.x] = 1.0f;                  // row k, 32 lanes: clean
  for (int i = 0; i < C<4>{} * C<8>{}; i += C<8>{})
    t[i * 32 + threadIdx.x * 2] = 2.0f;        // stride 2 words: 2-way
  for (int r = 0; r < rowsOf(n); ++r)
    out[r] += s[threadIdx.x][r % 33];          // a column of a padded tile: clean
}

int main() { bounds<96><<<1, 32>>>(nullptr, 100); }

// CHECK: bounds<96>:19:5 st 4 exact 1-way 1/1
// CHECK: bounds<96>:19:5 st 4 exact 1-way 1/1
// CHECK: bounds<96>:19:5 st 4 exact 1-way 1/1
// CHECK: bounds<96>:21:5 st 4 exact 2-way 2/1
// CHECK: bounds<96>:21:5 st 4 exact 2-way 2/1
// CHECK: bounds<96>:21:5 st 4 exact 2-way 2/1
// CHECK: bounds<96>:21:5 st 4 exact 2-way 2/1
// CHECK: bounds<96>:23:15 ld 4 exact 1-way 1/1
