// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// What nvcc 13 emits (PTX and SASS): an aligned struct assignment is one
// copy as wide as its alignment allows (a 16-byte struct of eight 2-byte
// elements is ld/st.shared.v4.u32, where LLVM's SROA would split it); separate
// 2-byte stores are paired into one STS where the pair is 4-byte aligned (a
// short array is placed 4-byte aligned), not into 8 bytes. A structured
// binding's reads are followed through get<I>.
struct alignas(16) Packed { unsigned short v[8]; };

__global__ void copies(Packed *out, const Packed *in, unsigned short x) {
  __shared__ Packed tile[256];
  __shared__ unsigned short u[4096];
  Packed p = in[threadIdx.x];
  p.v[3] = x;
  tile[threadIdx.x] = p;                        // one 16-byte store
  unsigned t = threadIdx.x * 8;
  for (int i = 0; i < 4; i++)
    u[t + i] = x;                               // two STS of 2 shorts, 4-way each
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x ^ 1];     // one 16-byte load
}

template <int I, class T> struct Elem;
struct Pair { int a, b; };
template <int I> __device__ int get(const Pair &p) { return I == 0 ? p.a : p.b; }
namespace std {
template <class T> struct tuple_size;
template <int I, class T> struct tuple_element;
template <> struct tuple_size<Pair> { static constexpr int value = 2; };
template <int I> struct tuple_element<I, Pair> { using type = int; };
}

__global__ void bindings(float *out) {
  __shared__ float s[64][32];
  Pair p{int(threadIdx.x), int(threadIdx.x % 32)};
  auto [row, col] = p;
  s[col][0] = 1.0f;                             // a column: 32-way
  __syncthreads();
  out[threadIdx.x] = s[row % 32][col];          // a row: clean
}

int main() {
  copies<<<1, 32>>>(nullptr, nullptr, 1);
  bindings<<<1, 32>>>(nullptr);
}

// CHECK: copies:15:3 st 16 exact 1-way 4/4
// CHECK: copies:18:5 st 4 exact 4-way 4/1 merged:18
// CHECK: copies:18:5 st 4 exact 4-way 4/1 merged:18
// CHECK: copies:20:22 ld 16 exact 1-way 4/4
// CHECK: bindings:37:3 st 4 exact 32-way 32/1
// CHECK: bindings:39:22 ld 4 exact 1-way 1/1
