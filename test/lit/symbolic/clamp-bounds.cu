// A per-lane index clamped by a block-uniform bound the tool does not know
// (pathfinder's W = max(tx - 1, validXmin), with validXmin computed from
// blockIdx and the parameters; min(2 * tx, cols)): every value of the bound
// that moves a lane is tried, from below the block's lowest index to above
// its highest. The same cost for each: exact. Otherwise the cost per range
// of the bound, and the worst as a bound.
// RUN: %cbl --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --remarks %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// RUN: %cbl --remarks --explain %s 2>&1 | %FileCheck %s --check-prefix=EXPLAIN

__global__ void clamp(const int *src, int *dst, int cols, int border, int iteration) {
  __shared__ int prev[512];
  int tx = threadIdx.x;
  int blkX = (256 - iteration * 2) * blockIdx.x - border;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int W = tx - 1;
  W = (W < validXmin) ? validXmin : W;
  prev[tx] = src[tx];
  __syncthreads();
  dst[tx] = prev[W];
  // CHECK: clamp:[[# @LINE-1]]:13 ld 4 exact 1-way 1/1
  // EXPLAIN: clamp-bounds.cu:[[# @LINE-2]]:13: remark: load of 4 bytes from 'prev' in 'clamp' (prev[W]): conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of (256 - iteration * 2) * blockIdx.x - border < 0 ? 0 - ((256 - iteration * 2) * blockIdx.x - border) : 0
  dst[tx] += prev[min(tx * 2, cols)];
  // CHECK: clamp:[[# @LINE-1]]:14 ld 4 bound 2-way 2/1
  // TEXT: clamp-bounds.cu:[[# @LINE-2]]:14: remark: possible bank conflict reading 'prev': conflict-free when 'cols' is at most 31, 2-way when 'cols' is at least 32
  __shared__ int wide[1024];
  wide[tx * 4] = 0;
  // CHECK: clamp:[[# @LINE-1]]:3 st 4 exact 4-way 4/1
  __syncthreads();
  dst[tx] += wide[min(tx * 4, cols)];
  // CHECK: clamp:[[# @LINE-1]]:14 ld 4 bound 4-way 4/1
  // TEXT: clamp-bounds.cu:[[# @LINE-2]]:14: remark: possible bank conflict reading 'wide': conflict-free when 'cols' is at most 31, 2-way when 'cols' is 32 to 63, 3-way when 'cols' is 64 to 95, 4-way when 'cols' is at least 96
}

int main(int argc, char **) { clamp<<<8, 256>>>(0, 0, argc, argc, argc); }
