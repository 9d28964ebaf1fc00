// A note about an array (an XOR swizzle that works, why no fix-it is
// offered) is the same for each of its findings: the text output says it
// once, with the first (so does --explain: no swizzle note per finding).
// Each finding shows its source line with its own caret, as Clang's
// printer does (caret-per-finding.cu). JSON keeps every note of every
// finding.
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT --match-full-lines --strict-whitespace
// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON

__global__ void transposeTwice(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
}

// Both accesses go through a pointer: a skew is verified, but the subscripts
// do not name the array; why there is no fix-it is said once.
__global__ void throughPointer(float *out) {
  __shared__ float t[32 * 32];
  float *p = t;
  p[threadIdx.x * 32] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = p[threadIdx.x * 32 + 1];
}

void launch(float *o) {
  transposeTwice<<<1, dim3(32, 32)>>>(o);
  throughPointer<<<1, 32>>>(o);
}

// TEXT:{{.*}}notes-once.cu:15:22: warning: 32-way bank conflict reading 'tile': {{.*}}
// TEXT-NEXT:   15 |   out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
// TEXT-NEXT:      |                      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// TEXT-NEXT:{{.*}}notes-once.cu:15:22: note: byte offset in 'tile' = {{.*}}
// TEXT-NEXT:{{.*}}notes-once.cu:12:20: note: fix-it: pad 'tile' to 'tile[32][32 + 1]' {{.*}}
// TEXT-NEXT:{{.*}}notes-once.cu:15:55: warning: 32-way bank conflict reading 'tile': {{.*}}
// TEXT-NEXT:   15 |   out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.x][(threadIdx.y + 1) % 32];
// TEXT-NEXT:      |                                                       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// TEXT-NEXT:{{.*}}notes-once.cu:15:55: note: byte offset in 'tile' = {{.*}}
// TEXT-NEXT:{{.*}}notes-once.cu:12:20: note: fix-it: the same as at line 15
// TEXT-NEXT:{{.*}}notes-once.cu:23:3: warning: 32-way bank conflict writing 't' through 'p': {{.*}}
// TEXT-NEXT:   23 |   p[threadIdx.x * 32] = 1.0f;
// TEXT-NEXT:      |   ^~~~~~~~~~~~~~~~~~~
// TEXT-NEXT:{{.*}}notes-once.cu:23:3: note: byte offset in 't' = {{.*}}
// TEXT-NEXT:{{.*}}notes-once.cu:21:20: note: no fix-it: skew the index of 't' by 1 word every 128 bytes (verified for the block shapes considered: this access better, no access to 't' worse), but the access at {{.*}}notes-once.cu:23:3 ('p[threadIdx.x * 32]') cannot be rewritten: it does not index 't' by name
// TEXT-NEXT:{{.*}}notes-once.cu:25:22: warning: 32-way bank conflict reading 't' through 'p': {{.*}}
// TEXT-NEXT:   25 |   out[threadIdx.x] = p[threadIdx.x * 32 + 1];
// TEXT-NEXT:      |                      ^~~~~~~~~~~~~~~~~~~~~~~
// TEXT-NEXT:{{.*}}notes-once.cu:25:22: note: byte offset in 't' = {{.*}}
// TEXT-NEXT:1 file analysed, {{.*}}, 4 warnings, 0 errors in {{.*}}

// EXPLAIN: notes-once.cu:15:22: warning: 32-way bank conflict reading 'tile'
// EXPLAIN: notes-once.cu:12:20: note: an XOR swizzle of the 4-byte chunks of 'tile' by the row
// EXPLAIN: notes-once.cu:15:55: warning: 32-way bank conflict reading 'tile'
// EXPLAIN-NOT: note: an XOR swizzle
// EXPLAIN: notes-once.cu:23:3: warning

// JSON-COUNT-2: "message": "an XOR swizzle of the 4-byte chunks of 'tile' by the row
// JSON-COUNT-2: "message": "no fix-it: skew the index of 't'
