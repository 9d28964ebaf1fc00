// Shared storage inside library templates written in the style of CUB's block
// primitives (Inputs/minicub/block_like.cuh, our own code): TempStorage structs
// behind Uninitialized<>, bound by reference in constructors through Alias(),
// members reached through `this`, integers from %laneid, static helpers
// returning pointers, recursive member templates; storage declared directly,
// in a union, and as raw bytes reinterpreted. Through -isystem the library is
// a system header: a finding in it is reported at the user's call, with the
// calls inside the library as notes; --system-headers reports it in place.
// RUN: %cbl --explain %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=USER
// RUN: %cbl --explain --system-headers %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=SYS
// RUN: %cbl --explain --config="{SystemHeaders: true}" %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=SYS
// RUN: %cbl --format=json %s -- -isystem %S/Inputs/minicub | %FileCheck %s --check-prefix=JSON
#include <block_like.cuh>
using namespace minicub;

__global__ void reduceKernel(const int *in, int *out) {
  using BR = BlockReduceLike<int, 256>;
  __shared__ typename BR::TempStorage temp;
  int agg = BR(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = agg;
}

// USER: library-templates.cu:[[# @LINE+8]]:3: warning: 2-way bank conflict writing 'temp': 2 lanes of warp 0 write 2 distinct words of bank 0 (2 wavefronts, ideal 1) [cuda-shared-bank-conflict]
// USER: block_like.cuh:98:38: note: the access is here, in 'Place' (a system header; --system-headers reports it here)
// SYS: block_like.cuh:98:38: warning: 2-way bank conflict writing 'temp'
// SYS: library-templates.cu:[[# @LINE+5]]:3: note: in 'Place' as called from 'placeKernel' here, with these arguments
__global__ void placeKernel(const int *data) {
  using BP = BlockRakingLike<int, 128>;
  __shared__ typename BP::TempStorage temp;
  int partial = data[threadIdx.x];
  BP(temp).Place(partial);
}

// The same conflict, silenced on the line of the call.
__global__ void placeSilenced(const int *data) {
  using BP = BlockRakingLike<int, 128>;
  __shared__ typename BP::TempStorage temp;
  BP(temp).Place(data[0]); // NOLINT(cuda-shared-bank-conflict)
}

// A union of storages, a named object, raw bytes reinterpreted.
// USER: library-templates.cu:[[# @LINE+7]]:3: warning: 2-way bank conflict writing 'temp'
__global__ void unionKernel(const int *in, int *out) {
  using BR = BlockReduceLike<int, 128>;
  using BP = BlockRakingLike<int, 128>;
  __shared__ union { typename BR::TempStorage reduce; typename BP::TempStorage rake; } temp;
  BP place(temp.rake);
  __syncthreads();
  place.Place(in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = BR(temp.reduce).Sum(in[0]);
}

// USER: library-templates.cu:[[# @LINE+4]]:3: warning: 2-way bank conflict writing 'bytes'
__global__ void rawBytes(int *data) {
  using BP = BlockRakingLike<int, 128>;
  __shared__ alignas(16) unsigned char bytes[sizeof(typename BP::TempStorage)];
  BP(reinterpret_cast<typename BP::TempStorage &>(bytes)).Place(data[0]);
}

// A blocked-to-striped exchange: the four stores of a thread's items are
// adjacent, and nvcc merges the unrolled loop's stores into one STS.128
// (conflict-free; compiler-merging.cu): no finding, a merged record.
__global__ void exchangeKernel(int *data) {
  using BE = BlockExchangeLike<int, 128, 4>;
  __shared__ typename BE::TempStorage temp;
  int items[4];
  for (int i = 0; i < 4; ++i)
    items[i] = data[threadIdx.x * 4 + i];
  BE(temp).BlockedToStriped(items);
  for (int i = 0; i < 4; ++i)
    data[i * 128 + threadIdx.x] = items[i];
}

// A static helper that returns a pointer into the storage (one pad word per
// 32: conflict-free).
__global__ void rakingKernel(int *data) {
  using L = RakingLayout<128, 32>;
  __shared__ typename L::TempStorage temp;
  int *p = L::PlacementPtr(temp, threadIdx.x);
  *p = data[threadIdx.x];
}

void launch(int *d) {
  reduceKernel<<<1, 256>>>(d, d);
  placeKernel<<<1, 128>>>(d);
  placeSilenced<<<1, 128>>>(d);
  unionKernel<<<1, 128>>>(d, d);
  rawBytes<<<1, 128>>>(d);
  exchangeKernel<<<1, 128>>>(d);
  rakingKernel<<<1, 128>>>(d);
}
// USER-NOT: warning:
// USER: 1 file analysed, {{.*}} 3 warnings, 0 errors

// Every access in the library has a record, with the chain of calls.
// JSON: "array": "temp",
// JSON: "call_chain": [
// JSON: "callee": "Sum",
// JSON: "callee": "ApplyWarpAggregates<1>",
// JSON: "expression": "temp_storage.warp_aggregates[W]",
// JSON: "function": "reduceKernel",
// JSON: "expression": "temp_storage.buff[linear_tid * ITEMS + i]",
// JSON: "function": "exchangeKernel",
// JSON: "merged_with": [
