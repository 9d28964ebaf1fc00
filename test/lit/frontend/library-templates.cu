// Shared storage inside library templates written in the style of CUB's block
// primitives (Inputs/minicub/block_like.cuh, our own code): TempStorage structs
// behind Uninitialized<>, bound by reference in constructors through Alias(),
// members reached through `this`, integers from %laneid, static helpers
// returning pointers, recursive member templates; storage declared directly,
// in a union, and as raw bytes reinterpreted. Through -isystem the library is
// a system header: a finding in it is reported at the user's call, with the
// calls inside the library as notes; --system-headers reports it in place.
// RUN: %cbl %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=USER
// RUN: %cbl --system-headers %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=SYS
// RUN: %cbl --config="{SystemHeaders: true}" %s -- -isystem %S/Inputs/minicub 2>&1 | %FileCheck %s --check-prefix=SYS
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

// USER: library-templates.cu:[[# @LINE+10]]:3: warning: 4-way bank conflict writing 'temp': 4 lanes of warp 0 write 4 distinct words of bank 0 (4 wavefronts, ideal 1) in each of the 4 iterations [cuda-shared-bank-conflict]
// USER: block_like.cuh:80:7: note: the access is here, in 'BlockedToStriped' (a system header; --system-headers reports it here)
// SYS: block_like.cuh:80:7: warning: 4-way bank conflict writing 'temp'
// SYS: library-templates.cu:[[# @LINE+7]]:3: note: in 'BlockedToStriped' as called from 'exchangeKernel' here, with these arguments
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

// The same conflict, silenced on the line of the call.
__global__ void exchangeSilenced(int *data) {
  using BE = BlockExchangeLike<int, 128, 4>;
  __shared__ typename BE::TempStorage temp;
  int items[4] = {0, 1, 2, 3};
  BE(temp).BlockedToStriped(items); // NOLINT(cuda-shared-bank-conflict)
  data[threadIdx.x] = items[0];
}

// A union of storages, a named object, raw bytes reinterpreted.
// USER: library-templates.cu:[[# @LINE+8]]:3: warning: 4-way bank conflict writing 'temp'
__global__ void unionKernel(const int *in, int *out) {
  using BR = BlockReduceLike<int, 128>;
  using BE = BlockExchangeLike<int, 128, 4>;
  __shared__ union { typename BR::TempStorage reduce; typename BE::TempStorage exchange; } temp;
  int items[4] = {in[0], in[1], in[2], in[3]};
  BE exchange(temp.exchange);
  __syncthreads();
  exchange.BlockedToStriped(items);
  __syncthreads();
  out[threadIdx.x] = BR(temp.reduce).Sum(items[0]);
}

// USER: library-templates.cu:[[# @LINE+5]]:3: warning: 4-way bank conflict writing 'bytes'
__global__ void rawBytes(int *data) {
  using BE = BlockExchangeLike<int, 128, 4>;
  __shared__ alignas(16) unsigned char bytes[sizeof(typename BE::TempStorage)];
  int items[4] = {data[0], data[1], data[2], data[3]};
  BE(reinterpret_cast<typename BE::TempStorage &>(bytes)).BlockedToStriped(items);
  data[threadIdx.x] = items[0];
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
  exchangeKernel<<<1, 128>>>(d);
  exchangeSilenced<<<1, 128>>>(d);
  unionKernel<<<1, 128>>>(d, d);
  rawBytes<<<1, 128>>>(d);
  rakingKernel<<<1, 128>>>(d);
}
// USER-NOT: warning:
// USER: 1 file analysed, {{.*}} 3 warnings, 0 errors

// Every access in the library has a record, with the chain of calls.
// JSON: "array": "temp",
// JSON: "call_chain": [
// JSON: "callee": "Sum",
// JSON: "callee": "ApplyWarpAggregates",
// JSON: "expression": "temp_storage.warp_aggregates[W]",
// JSON: "function": "reduceKernel",
