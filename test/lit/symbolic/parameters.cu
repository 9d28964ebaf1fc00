// RUN: %cbl --explain --remarks %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl --format=json %s | %FileCheck %s --check-prefix=JSON
// A conflict that depends on a kernel parameter is decided for every value:
// the address is affine in the parameter, so once it exceeds the spread of
// the other terms the cost repeats every 32 words; one period plus the small
// values is evaluated. It is reported as a possible conflict, at remark
// severity (configurable), with its condition.

__global__ void pitched(float *o, int pitch, unsigned offset) {
  __shared__ float s[32 * 1024];
  // A 16x2 block: rows of 16 lanes, 'pitch' floats apart.
  o[threadIdx.x] = s[threadIdx.y * pitch + threadIdx.x];
  // A uniform offset in whole words changes nothing: exact and clean.
  o[threadIdx.x] += s[threadIdx.y * 16 + threadIdx.x + offset];
}
// CHECK: parameters.cu:12:20: remark: possible bank conflict reading 's': 2-way when 'pitch' mod 32 is not 16, except 'pitch' = 0-15 (conflict-free) (for 'pitch' >= 0) (worst: 2 wavefronts, ideal 1, at 'pitch' = 17) [cuda-shared-bank-conflict]
// JSON: "expression": "s[threadIdx.y * pitch + threadIdx.x]",
// JSON: "reason": "the cost depends on the value of 'pitch': 2-way when 'pitch' mod 32 is not 16, except 'pitch' = 0-15 (conflict-free) (for 'pitch' >= 0)",
// JSON-NEXT: "status": "bound",
// JSON: "expression": "s[threadIdx.y * 16 + threadIdx.x + offset]",
// JSON: "parameters": [
// JSON-NEXT: "offset"
// JSON: "status": "exact",
// JSON-NEXT: "wavefronts": 1,

// Block shape unknown and the index uses threadIdx.y: the blocks considered
// are those people launch such code with (blockDim.x a multiple of 32, or the
// extent of the dimension threadIdx.x indexes, less a padding element).
// tile[ty][tx] of a 32x32 tile is conflict-free at each: silent.
__global__ void unknownShape(float *o) {
  __shared__ float tile[32][32];
  o[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
  // CHECK: parameters.cu:[[# @LINE+1]]:20: warning: 32-way bank conflict reading 'tile': 32 lanes of warp 0 read 32 distinct words of bank 0 (32 wavefronts, ideal 1) at blockDim.x=32
  o[threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
// CHECK-NOT: parameters.cu:[[# @LINE-4]]:{{.*}} bank conflict
// CHECK: note: assuming a block of unknown shape: the address uses threadIdx.y or threadIdx.z, so the result depends on blockDim.x
// A conflict at some of those widths only is a possible conflict with its
// condition (a remark): 16 + 1 padding is clean for 17 threads a row, not 16.
__global__ void unknownShapePadded(float *o) {
  __shared__ float m[32][17];
  o[threadIdx.x] = m[threadIdx.y][threadIdx.x];
}
// CHECK: parameters.cu:[[# @LINE-2]]:20: remark: possible bank conflict reading 'm': 2-way when blockDim.x is 16; conflict-free when blockDim.x is 17 (the block shape is not known: blockDim.x a multiple of 32 or the extent of the dimension threadIdx.x indexes)

// The check option PossibleSeverity (remark by default) raises possible
// conflicts to warnings or silences them.
// RUN: %cbl --config='{CheckOptions: {cuda-shared-bank-conflict.PossibleSeverity: warning}}' %s 2>&1 | %FileCheck %s --check-prefix=RAISED
// RAISED: parameters.cu:12:20: warning: possible bank conflict reading 's'
// RUN: %cbl --config='{CheckOptions: {cuda-shared-bank-conflict.PossibleSeverity: none}}' %s 2>&1 | %FileCheck %s --check-prefix=SILENT
// SILENT-NOT: possible bank conflict
// SILENT: parameters.cu:{{[0-9]+}}:20: warning: 32-way bank conflict reading 'tile'
// SILENT-NOT: possible bank conflict

// The pitch again, but the row is filled by a block-stride loop whose bound
// is known: with 'pitch' fixed to each value the loop is run (its guard on
// the counter decides which lanes take the last iteration).
__global__ void pitchedRows(unsigned char *o, int pitch) {
  extern __shared__ unsigned char rows[];
  for (int c = threadIdx.x; c < 80 + 4; c += blockDim.x)
    rows[threadIdx.y * pitch + 4 * c] = o[c];
}
// CHECK: parameters.cu:[[# @LINE-2]]:5: remark: possible bank conflict writing 'rows': 2-way when 'pitch' mod 128 is not 64, 65 nor 66, except 'pitch' = 0-63 (conflict-free) (for 'pitch' >= 0)
// JSON: "expression": "rows[threadIdx.y * pitch + 4 * c]",
// JSON: "status": "bound",

void launch(float *o, int a, int b) {
  pitched<<<1, dim3(16, 2)>>>(o, a, b);
  pitchedRows<<<1, dim3(16, 4), 4096>>>((unsigned char *)o, a);
}
