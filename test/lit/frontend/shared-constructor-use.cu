// A kernel whose code uses a __shared__ object with a constructor (nvcc
// does not run it; Clang does not compile it, nor the code that uses it) is
// not analysed: one error, said at the object's declaration, that names the
// object and states the cause; no second note about the same object, and
// --strict counts no second error for it (only 'unused' is one more). A
// kernel that only declares one is analysed, with the note that the
// object's uses are not. The summary groups them all under one reason.
// RUN: %expect-exit 2 %cbl %s 2>&1 | %FileCheck %s --implicit-check-not=Clang --implicit-check-not=note:
// RUN: %expect-exit 2 %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// RUN: %expect-exit 2 %cbl --format=sarif %s 2>/dev/null | %FileCheck %s --check-prefix=SARIF
// RUN: %expect-exit 2 %cbl --strict %s 2>&1 | %FileCheck %s --check-prefix=STRICT

struct Counter {
  __device__ Counter() : n(0) {}
  __device__ void add(int v) { n += v; }
  int n;
};
__device__ void bump(Counter *c) { c->add(1); }

__global__ void byMember(float *out) {
  __shared__ float s[64];
  // CHECK: shared-constructor-use.cu:[[# @LINE+1]]:22: error: kernel 'byMember' not analysed: it uses 'count', a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it){{$}}
  __shared__ Counter count;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  count.add(1);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// Its address: Sema leaves the name as an expression without children.
__global__ void byAddress(float *out) {
  // CHECK: shared-constructor-use.cu:[[# @LINE+1]]:22: error: kernel 'byAddress' not analysed: it uses 'tally', a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it){{$}}
  __shared__ Counter tally;
  __shared__ float s[64];
  bump(&tally);
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void unused(float *out) {
  // CHECK: shared-constructor-use.cu:[[# @LINE+1]]:22: note: kernel 'unused' has a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it): its uses are not analysed
  __shared__ Counter idle;
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(float *o) {
  byMember<<<1, 64>>>(o);
  byAddress<<<1, 64>>>(o);
  unused<<<1, 64>>>(o);
}

// CHECK: 1 file analysed (1 partly, 0 not at all), {{.*}}, 0 warnings, 2 errors
// CHECK-NEXT: shared-constructor-use.cu: shared memory not modelled in 3 kernels:
// CHECK-NEXT:   3 kernels: a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it): its uses are not analysed ('byMember', 'byAddress', 'unused')

// STRICT: 1 file analysed (1 partly, 0 not at all), {{.*}}, 0 warnings, 3 errors in
// STRICT-NEXT: shared-constructor-use.cu: error: shared memory not modelled in 3 kernels (--strict):

// JSON:      "skipped": [
// JSON:        "error": "it uses 'count', a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it)",
// JSON-NEXT:   "error_location": {
// JSON-NEXT:     "column": 22,
// JSON-NEXT:     "file": "{{.*}}shared-constructor-use.cu",
// JSON-NEXT:     "line": 23
// JSON:        "function": "byMember",
// JSON-NEXT:   "kind": "kernel",
// JSON-NEXT:   "line": 23,

// SARIF: "text": "kernel 'byMember' not analysed: it uses 'count', a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it)"
