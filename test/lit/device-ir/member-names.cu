// RUN: %cbl %s --block-dim=32 --remarks 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %cbl %s --block-dim=32 --explain 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// A value read from a member is named by the whole member expression: the
// debug location of its load is the member's name (`count`, `z`), which
// alone would name several values alike and none as the user wrote it.
struct Item {
  int key;
  int count;
};

__global__ void counts(const Item *items, float *out) {
  if (items[threadIdx.x].count > 0)
    __syncthreads();
// CHECK: member-names.cu:[[# @LINE-1]]:5: warning: barrier '__syncthreads()' may be divergent: whether a thread reaches it depends on 'items[threadIdx.x].count' (value loaded from memory), which can differ between threads
// CHECK: member-names.cu:[[# @LINE-3]]:7: note: the if condition 'items[threadIdx.x].count > 0' is thread-varying
  out[threadIdx.x] = 0;
}

// A by-value vector parameter (uint3): its members are distinct values.
__global__ void planes(uint3 dims, float *out) {
  __shared__ float tile[32 * 33];
  tile[threadIdx.x * dims.z] = 1.0f;
// CHECK: member-names.cu:[[# @LINE-1]]:3: remark: possible bank conflict writing 'tile': 32-way when 'dims.z' is a multiple of 32;
// CHECK: byte offset in 'tile' = dims.z * threadIdx.x * 4: lanes 0-31 hit bank 0
  tile[threadIdx.x * dims.y + dims.x] = 2.0f;
// CHECK: member-names.cu:[[# @LINE-1]]:3: remark: possible bank conflict writing 'tile': 32-way when 'dims.y' is a multiple of 32;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void pick(const Item *items, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[items[blockIdx.x].key + threadIdx.x];
// EXPLAIN: member-names.cu:[[# @LINE-1]]:22: {{.*}}conflict-free, 1 wavefront (ideal 1) in warp 0; holds for all values of items[blockIdx.x].key
// EXPLAIN-NEXT: byte offset = (items[blockIdx.x].key + threadIdx.x) * 4
}
