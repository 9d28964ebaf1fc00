// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// The down-sweep of a Blelloch scan swaps through a temporary and reads
// a[bi] again on the third line. The store on the second line writes the
// value of a[bi] wherever it lands, so LLVM would reuse the first read; nvcc
// reads a[bi] again (measured on an H100, scan_bcao of HeCBench), and so
// does the model: every line keeps its load.
#define OFFSET(i) ((i) >> 5)

template <typename T>
__global__ void downsweep(T *out, int offset) {
  __shared__ T temp[160];
  int thid = threadIdx.x;
  int ai = offset * (2 * thid + 1) - 1;
  int bi = offset * (2 * thid + 2) - 1;
  ai += OFFSET(ai);
  bi += OFFSET(bi);
  T t = temp[ai];
  temp[ai] = temp[bi];
  temp[bi] += t;
  out[thid] = temp[thid];
}

int main() {
  downsweep<<<1, 32>>>((int *)nullptr, 2);
  downsweep<<<1, 32>>>((char *)nullptr, 2);
}

// CHECK: downsweep<int>:17:9 ld 4 exact 1-way 1/1
// CHECK-NEXT: downsweep<char>:17:9 ld 1
// CHECK-NEXT: downsweep<int>:18:3 st 4 exact 1-way 1/1
// CHECK-NEXT: downsweep<char>:18:3 st 1
// CHECK-NEXT: downsweep<int>:18:14 ld 4 exact 1-way 1/1
// CHECK-NEXT: downsweep<char>:18:14 ld 1
// CHECK-NEXT: downsweep<int>:19:3 ld 4 exact 1-way 1/1
// CHECK-NEXT: downsweep<int>:19:3 st 4 exact 1-way 1/1
// CHECK-NEXT: downsweep<char>:19:3 ld 1
// CHECK-NEXT: downsweep<char>:19:3 st 1
