// A loop of several exits (a break on loaded data) is run with an internal
// flag, whether a lane runs another iteration. It is no variable of the
// program: JSON's `parameters` lists the program's values ('i'), and the
// loop whose flag the verdict holds for every value of is in `loop_flags`;
// --explain says the result holds in every iteration of that loop.
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN

__global__ void k(float *out, int n) {
  __shared__ float s[1024];
  for (int i = 0; i < n; ++i) {
    if (out[i] > 0.f)
      break;
    s[threadIdx.x * 2] = i;
    __syncwarp();
  }
}
void launch(float *d, int n) { k<<<8, 128>>>(d, n); }

// JSON: "expression": "s[threadIdx.x * 2]",
// JSON: "loop_flags": [
// JSON-NEXT:   {
// JSON-NEXT:     "column": 3,
// JSON-NEXT:     "file": "{{.*}}loop-flag-not-a-parameter.cu",
// JSON-NEXT:     "line": 11
// JSON-NEXT:   }
// JSON-NEXT: ],
// JSON: "parameters": [
// JSON-NEXT:   "i"
// JSON-NEXT: ],

// EXPLAIN: note: assuming block 128x1x1 from the launch at {{.*}}; the result holds for every value of 'i' and in every iteration of the loop at line 11
