// Clang's errors stop only the code they are in. A kernel whose own body, or a
// device function it calls, does not compile is named with the first error
// and not analysed (exit 2, like clang-tidy on compiler errors); the other
// kernels are analysed. Errors in host-only code, templates and members of
// class templates included, are skipped with a note (nvcc compiles host code
// with the host compiler).
// RUN: %expect-exit 2 %cbl %s -- -std=c++17 2>&1 | %FileCheck %s
// RUN: %expect-exit 2 %cbl --format=json %s -- -std=c++17 2>/dev/null | %FileCheck %s --check-prefix=JSON

template <class T> void hostTemplate(T) { undeclaredInTemplate(); }
template <class T> struct TestBed {
  void run() { undeclaredInMember(); }
};
__device__ int brokenHelper(int x) { return undeclaredInHelper(x); }
__device__ int goodHelper(int x) { return x * 2; }

// The kernel beside the errors is analysed.
// CHECK-DAG: compile-errors.cu:[[# @LINE+3]]:20: warning: 2-way bank conflict reading 's'
__global__ void analysed(float *o) {
  __shared__ float s[64];
  o[threadIdx.x] = s[goodHelper(threadIdx.x)];
}

// CHECK-DAG: compile-errors.cu:[[# @LINE+1]]:17: error: kernel 'callsBroken' not analysed: Clang rejects 'brokenHelper', which it calls: use of undeclared identifier 'undeclaredInHelper' (
__global__ void callsBroken(float *o) {
  __shared__ float s[64];
  o[threadIdx.x] = s[brokenHelper(threadIdx.x)];
}

// Helpers a rejected kernel reached are lowered for the next kernel that
// reaches them (quad), and so are those an analysed kernel reached before
// (goodHelper, through quad).
__device__ int quad(int x) { return goodHelper(goodHelper(x)); }
// CHECK-DAG: compile-errors.cu:[[# @LINE+1]]:17: error: kernel 'rejectedFirst' not analysed: Clang rejects 'brokenHelper', which it calls
__global__ void rejectedFirst(float *o) {
  __shared__ float s[128];
  o[threadIdx.x] = s[quad(threadIdx.x)] + brokenHelper(1);
}
// CHECK-DAG: compile-errors.cu:[[# @LINE+3]]:20: warning: 4-way bank conflict reading 's'
__global__ void quadAfterRejected(float *o) {
  __shared__ float s[128];
  o[threadIdx.x] = s[quad(threadIdx.x)];
}

// CHECK-DAG: compile-errors.cu:[[# @LINE+1]]:17: error: kernel 'ownError' not analysed: Clang rejects its code: use of undeclared identifier 'nope' (
__global__ void ownError(float *o) { o[threadIdx.x] = nope; }

// A kernel template with an error in its pattern: every instantiation stops.
// CHECK-DAG: error: kernel 'templated<4>' not analysed: Clang rejects its code: use of undeclared identifier 'alsoNope'
template <int N> __global__ void templated(float *o) { o[N] = alsoNope; }

void launch(float *o) {
  analysed<<<1, 32>>>(o);
  quadAfterRejected<<<1, 32>>>(o);
  templated<4><<<1, 32>>>(o);
}

// CHECK-DAG: compile-errors.cu: note: Clang rejects host code in 'hostTemplate', 'TestBed::run' (nvcc accepts it); device code was analysed
// CHECK-DAG: note: device function 'brokenHelper' not analysed
// CHECK: 1 file analysed (1 partly, 0 not at all), 2 shared accesses (2 exact), 2 warnings, 4 errors

// JSON: "partly_analysed": 1,
// JSON: "translation_units": [
// JSON: "function": "hostTemplate",
// JSON-NEXT: "kind": "host",
// JSON: "function": "TestBed::run",
// JSON-NEXT: "kind": "host",
// JSON: "function": "callsBroken",
// JSON-NEXT: "kind": "kernel",
// JSON-NEXT: "line": 25,
// JSON-NEXT: "via": "brokenHelper"
// JSON: "status": "partial"
