// One padding fixes three conflicted accesses to one array: the fix-it is
// stated once per run, under the first finding; the other findings refer to
// it in one line (text, GitHub annotations). JSON and SARIF keep each
// finding's notes, with the replacement in the first finding only, as
// --export-fixes writes it; --fix applies it once, and the file is then
// conflict-free. With two arrays, each has its own.
// RUN: %cbl %s 2>/dev/null | %FileCheck %s --implicit-check-not=fix-it
// RUN: %cbl --explain %s 2>/dev/null | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=github %s 2>/dev/null | %FileCheck %s --check-prefix=GITHUB
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --format=json %s 2>/dev/null | grep -c '"replacement"' | %FileCheck %s --check-prefix=FOUR
// RUN: %cbl --format=sarif %s 2>/dev/null | grep -c '"insertedContent"' | %FileCheck %s --check-prefix=TWO
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %cbl --export-fixes=%t/k.yaml %t/k.cu > /dev/null 2>&1
// RUN: grep -c ReplacementText %t/k.yaml | %FileCheck %s --check-prefix=TWO
// RUN: %cbl --fix %t/k.cu 2>&1 | %FileCheck %s --check-prefix=FIX
// RUN: %cbl %t/k.cu 2>&1 | %FileCheck %s --check-prefix=AFTER
// TWO: {{^2$}}
// Each array's: the finding's and its fix note's (as clang-tidy's YAML
// gives a diagnostic's fix-its and its notes').
// FOUR: {{^4$}}
// FIX: applied 2 fix-its to 1 file
// AFTER: 1 file analysed, 5 shared accesses (5 exact), 0 warnings, 0 errors

__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][32];
  __shared__ float other[32][32];
  tile[threadIdx.x][threadIdx.y] = in[threadIdx.y * 32 + threadIdx.x];
  other[threadIdx.x][threadIdx.y] = in[threadIdx.x];
  __syncthreads();
  float a = tile[threadIdx.x][threadIdx.y];
  float b = tile[threadIdx.x][(threadIdx.y + 1) % 32];
  float c = other[threadIdx.x][threadIdx.y];
  out[threadIdx.y * 32 + threadIdx.x] = a + b + c;
}
void launch(float *o, const float *i) { transpose<<<1, dim3(32, 8)>>>(o, i); }

// CHECK:      fix-once-per-array.cu:[[#FIRST:]]:3: warning: 32-way bank conflict writing 'tile'
// CHECK:      fix-once-per-array.cu:[[#TILE:]]:20: note: fix-it: pad 'tile' to 'tile[32][32 + 1]' (verified
// CHECK:      fix-once-per-array.cu:[[#OTHER:]]:3: warning: 32-way bank conflict writing 'other'
// CHECK:      fix-once-per-array.cu:[[#OTHERDECL:]]:20: note: fix-it: pad 'other' to 'other[32][32 + 1]' (verified
// CHECK:      fix-once-per-array.cu:[[#FIRST+3]]:13: warning: 32-way bank conflict reading 'tile'
// CHECK:      fix-once-per-array.cu:[[#TILE]]:20: note: fix-it: the same as at line [[#FIRST]]{{$}}
// CHECK:      fix-once-per-array.cu:[[#FIRST+4]]:13: warning: 32-way bank conflict reading 'tile'
// CHECK:      fix-once-per-array.cu:[[#TILE]]:20: note: fix-it: the same as at line [[#FIRST]]{{$}}
// CHECK:      fix-once-per-array.cu:[[#FIRST+5]]:13: warning: 32-way bank conflict reading 'other'
// CHECK:      fix-once-per-array.cu:[[#OTHERDECL]]:20: note: fix-it: the same as at line [[#OTHER]]{{$}}

// --explain: the fix-it's source line and edit once, too.
// EXPLAIN:      note: fix-it: pad 'tile' to 'tile[32][32 + 1]'
// EXPLAIN-NEXT:   __shared__ float tile[32][32];
// EXPLAIN-NEXT:   ^        ~~
// EXPLAIN-NEXT:   32 + 1
// EXPLAIN:      note: fix-it: pad 'other' to 'other[32][32 + 1]'
// EXPLAIN-NEXT:   __shared__ float other[32][32];
// EXPLAIN-NEXT:   ^         ~~
// EXPLAIN-NEXT:   32 + 1
// EXPLAIN-NOT:  32 + 1{{$}}
// EXPLAIN:      note: fix-it: the same as at line
// EXPLAIN-NOT:  32 + 1{{$}}

// GITHUB:      ::warning {{.*}}line=[[#FIRST:]],col=3,{{.*}}note: fix-it: pad 'tile'
// GITHUB-NEXT: ::warning {{.*}}note: fix-it: pad 'other'
// GITHUB-NEXT: ::warning {{.*}}line=[[#FIRST+3]],col=13,{{.*}}%0A{{.*}}fix-once-per-array.cu:{{[0-9]+}}:20: note: fix-it: the same as at line [[#FIRST]]{{$}}

// The second finding of 'tile' keeps its fix note, without the replacement.
// JSON:      "diagnostics": [
// JSON:      "replacement": "32 + 1"
// JSON:      "line": [[#FIRST:]],
// JSON-NEXT: "message": "32-way bank conflict writing 'tile'
// JSON:      "column": 13,
// JSON-NEXT: "file": "{{.*}}fix-once-per-array.cu",
// JSON-NEXT: "fixes": [],
// JSON-NEXT: "line": [[#FIRST+3]],
// JSON-NEXT: "message": "32-way bank conflict reading 'tile'
// JSON:        "fixes": [],
// JSON-NEXT:   "location": {
// JSON:        "message": "fix-it: pad 'tile' to 'tile[32][32 + 1]' {{.*}}",
// JSON-NEXT:   "role": "fix"
