// Single-instruction oracle for shared-memory atomics on sm_90: one warp,
// one atomic instruction (or one CAS loop) per launch, lane i at byte offset
// offs[i] when bit i of mask. Writes the launches to patterns.csv; run under
// Nsight Compute and join with utils/oracles/atomics_table.py (see
// docs/bank-model.md for the command and the metrics). Each operation's
// patterns come from its own generator seeded by its width, so they do not
// depend on which operations one run includes (test/data/h100-atomics.csv was
// measured as operations 0-11, 12-21 and 22-27 in three runs).
//
//   nvcc -arch=sm_90 -std=c++17 -o shared-atomics shared-atomics.cu
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <random>
#include <string>

constexpr unsigned BufBytes = 16384;
#include "patterns.h"

enum Op { ADD_U32, ADD_F32, ADD_U64, ADD_F64, CAS_B32, CAS_B64, EXCH_B32, MIN_S32, AND_B32, INC_U32, RED_ADD_U32, ADD_F16X2,
          EXCH_B64, MIN_S64, AND_B64, MAX_U32, ADD_BF16X2, REF_ADD_S32, ASM_ATOM_ADD_U32, ADD_BLOCK_S32, ASM_ATOM_CAS_B32, ASM_ATOM_EXCH_B64,
          INC1_U32, INC1_S32, RED_INC1_U32, DEC1_U32, ADDC_U32, INC1_BLOCK_U32, NUM_OPS };
static const char *OpNames[] = {"add.u32", "add.f32", "add.u64", "add.f64", "cas.b32", "cas.b64", "exch.b32", "min.s32", "and.b32", "inc.u32", "red.add.u32", "add.f16x2",
                                "exch.b64", "min.s64", "and.b64", "max.u32", "add.bf16x2", "atomic_ref.add.s32", "asm.atom.add.u32", "add_block.s32", "asm.atom.cas.b32", "asm.atom.exch.b64",
                                "inc1.u32", "inc1.s32", "red.inc1.u32", "dec1.u32", "addc.u32", "inc1_block.u32"};
static const unsigned OpWidth[] = {4, 4, 8, 8, 4, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 4, 4, 4, 4, 4, 4};

// Operations 22-27 discard the atomic's result and add a constant 1 (or -1,
// or a value the same in every lane): on sm_90 nvcc compiles some of them to
// ATOMS.POPC.INC/DEC, which merges the lanes on one word.
template <int OP>
__global__ void probe(const unsigned *offs, unsigned mask, unsigned long long *out, unsigned c) {
  __shared__ __align__(16) unsigned char buf[BufBytes];
  unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < BufBytes / 4; i += 32)
    reinterpret_cast<unsigned *>(buf)[i] = 0;
  __syncthreads();
  unsigned o = offs[lane];
  unsigned long long r = 0;
  if ((mask >> lane) & 1) {
    void *p = buf + o;
    if (OP == ADD_U32) r = atomicAdd((unsigned *)p, lane + 1);
    if (OP == ADD_F32) r = (unsigned long long)atomicAdd((float *)p, float(lane + 1));
    if (OP == ADD_U64) r = atomicAdd((unsigned long long *)p, (unsigned long long)lane + 1);
    if (OP == ADD_F64) r = (unsigned long long)atomicAdd((double *)p, double(lane + 1));
    if (OP == CAS_B32) r = atomicCAS((unsigned *)p, 0u, lane + 1);
    if (OP == CAS_B64) r = atomicCAS((unsigned long long *)p, 0ull, (unsigned long long)lane + 1);
    if (OP == EXCH_B32) r = atomicExch((unsigned *)p, lane + 1);
    if (OP == MIN_S32) r = (unsigned)atomicMin((int *)p, -(int)lane);
    if (OP == AND_B32) r = atomicAnd((unsigned *)p, ~(1u << lane));
    if (OP == INC_U32) r = atomicInc((unsigned *)p, 1000u + lane);
    if (OP == RED_ADD_U32) {
      unsigned a = (unsigned)__cvta_generic_to_shared(p);
      asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(lane + 1) : "memory");
    }
    if (OP == ADD_F16X2) { __half2 v = atomicAdd((__half2 *)p, __halves2half2(__float2half(1.f), __float2half(2.f))); r = __half2float(v.x); }
    if (OP == EXCH_B64) r = atomicExch((unsigned long long *)p, (unsigned long long)lane + 1);
    if (OP == MIN_S64) r = (unsigned long long)atomicMin((long long *)p, -(long long)lane);
    if (OP == AND_B64) r = atomicAnd((unsigned long long *)p, ~(1ull << lane));
    if (OP == MAX_U32) r = atomicMax((unsigned *)p, lane + 1);
    if (OP == ADD_BF16X2) { __nv_bfloat162 v = atomicAdd((__nv_bfloat162 *)p, __nv_bfloat162(__float2bfloat16(1.f), __float2bfloat16(2.f))); r = (unsigned long long)__bfloat162float(v.x); }
    if (OP == REF_ADD_S32) { cuda::atomic_ref<int, cuda::thread_scope_block> a(*(int *)p); r = (unsigned)a.fetch_add((int)lane + 1, cuda::memory_order_relaxed); }
    if (OP == ASM_ATOM_ADD_U32) { unsigned a = (unsigned)__cvta_generic_to_shared(p), v; asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(v) : "r"(a), "r"(lane + 1) : "memory"); r = v; }
    if (OP == ADD_BLOCK_S32) r = (unsigned)atomicAdd_block((int *)p, (int)lane + 1);
    if (OP == ASM_ATOM_CAS_B32) { unsigned a = (unsigned)__cvta_generic_to_shared(p), v; asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(v) : "r"(a), "r"(0u), "r"(lane + 1) : "memory"); r = v; }
    if (OP == INC1_U32) atomicAdd((unsigned *)p, 1u);
    if (OP == INC1_S32) atomicAdd((int *)p, 1);
    if (OP == RED_INC1_U32) { unsigned a = (unsigned)__cvta_generic_to_shared(p); asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a) : "memory"); }
    if (OP == DEC1_U32) atomicSub((unsigned *)p, 1u);
    if (OP == ADDC_U32) atomicAdd((unsigned *)p, c);
    if (OP == INC1_BLOCK_U32) atomicAdd_block((unsigned *)p, 1u);
    if (OP == ASM_ATOM_EXCH_B64) { unsigned a = (unsigned)__cvta_generic_to_shared(p); unsigned long long v; asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(v) : "r"(a), "l"((unsigned long long)lane + 1) : "memory"); r = v; }
  }
  __syncthreads();
  out[lane] = r + (unsigned long long)reinterpret_cast<unsigned *>(buf)[lane];
}

typedef void (*Kern)(const unsigned *, unsigned, unsigned long long *, unsigned);
static Kern Kernels[] = {probe<0>,  probe<1>,  probe<2>,  probe<3>,  probe<4>,  probe<5>,  probe<6>,  probe<7>,
                         probe<8>,  probe<9>,  probe<10>, probe<11>, probe<12>, probe<13>, probe<14>, probe<15>,
                         probe<16>, probe<17>, probe<18>, probe<19>, probe<20>, probe<21>, probe<22>, probe<23>,
                         probe<24>, probe<25>, probe<26>, probe<27>};

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "patterns.csv", "w");
  unsigned *dOffs; unsigned long long *dOut;
  cudaMalloc(&dOffs, 32 * 4); cudaMalloc(&dOut, 32 * 8);
  writePatternHeader(f);
  unsigned launch = 0;
  // Optional range of operations: shared-atomics FILE FIRST END.
  int first = argc > 2 ? atoi(argv[2]) : 0, end = argc > 3 ? atoi(argv[3]) : NUM_OPS;
  for (int op = first; op < end; ++op) {
    std::mt19937 rng(1234 + OpWidth[op]);
    auto P = patterns(OpWidth[op], rng);
    for (auto &p : P) {
      cudaMemcpy(dOffs, p.off, 128, cudaMemcpyHostToDevice);
      Kernels[op]<<<1, 32>>>(dOffs, p.mask, dOut, 5u);
      writePatternRow(f, launch++, OpNames[op], OpWidth[op], p);
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "launches %u: %s\n", launch, cudaGetErrorString(e));
  fclose(f);
  return e != cudaSuccess;
}
