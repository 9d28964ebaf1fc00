// Single-instruction oracle for shared-memory atomics on sm_90: one warp,
// one atomic instruction (or one CAS loop) per launch, lane i at byte offset
// offs[i] when bit i of mask. Writes the launches to patterns.csv; run under
// Nsight Compute and join with utils/oracles/atomics_table.py (see
// docs/bank-model.md for the command and the metrics). Each operation's
// patterns come from its own generator seeded by its width, so they do not
// depend on which operations one run includes (test/data/h100-atomics.csv was
// measured as operations 0-11 and 12-21 in two runs).
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

enum Op { ADD_U32, ADD_F32, ADD_U64, ADD_F64, CAS_B32, CAS_B64, EXCH_B32, MIN_S32, AND_B32, INC_U32, RED_ADD_U32, ADD_F16X2,
          EXCH_B64, MIN_S64, AND_B64, MAX_U32, ADD_BF16X2, REF_ADD_S32, ASM_ATOM_ADD_U32, ADD_BLOCK_S32, ASM_ATOM_CAS_B32, ASM_ATOM_EXCH_B64, NUM_OPS };
static const char *OpNames[] = {"add.u32", "add.f32", "add.u64", "add.f64", "cas.b32", "cas.b64", "exch.b32", "min.s32", "and.b32", "inc.u32", "red.add.u32", "add.f16x2",
                                "exch.b64", "min.s64", "and.b64", "max.u32", "add.bf16x2", "atomic_ref.add.s32", "asm.atom.add.u32", "add_block.s32", "asm.atom.cas.b32", "asm.atom.exch.b64"};
static const unsigned OpWidth[] = {4, 4, 8, 8, 4, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8};

template <int OP>
__global__ void probe(const unsigned *offs, unsigned mask, unsigned long long *out) {
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
    if (OP == ASM_ATOM_EXCH_B64) { unsigned a = (unsigned)__cvta_generic_to_shared(p); unsigned long long v; asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(v) : "r"(a), "l"((unsigned long long)lane + 1) : "memory"); r = v; }
  }
  __syncthreads();
  out[lane] = r + (unsigned long long)reinterpret_cast<unsigned *>(buf)[lane];
}

typedef void (*Kern)(const unsigned *, unsigned, unsigned long long *);
static Kern Kernels[] = {probe<0>,  probe<1>,  probe<2>,  probe<3>,  probe<4>,  probe<5>,  probe<6>,  probe<7>,
                         probe<8>,  probe<9>,  probe<10>, probe<11>, probe<12>, probe<13>, probe<14>, probe<15>,
                         probe<16>, probe<17>, probe<18>, probe<19>, probe<20>, probe<21>};

struct Pattern { unsigned mask; unsigned off[32]; const char *kind; };

// Patterns for one width W (bytes): every offset a multiple of W, < BufBytes.
static std::vector<Pattern> patterns(unsigned W, std::mt19937 &rng) {
  std::vector<Pattern> P;
  auto add = [&](const char *kind, unsigned mask, auto f) {
    Pattern p; p.mask = mask; p.kind = kind;
    for (unsigned l = 0; l < 32; ++l) p.off[l] = (f(l) * W) % BufBytes;
    P.push_back(p);
  };
  const unsigned full = 0xffffffffu;
  // constant strides (in elements), base 0 and an odd base
  for (unsigned s = 0; s <= 33; ++s) {
    add("stride", full, [&](unsigned l) { return l * s; });
    add("stride", full, [&](unsigned l) { return 3 + l * s; });
  }
  for (unsigned s : {48u, 64u, 96u, 127u, 128u})
    add("stride", full, [&](unsigned l) { return l * s; });
  // same-address groups of g lanes (consecutive and interleaved), groups g elements apart or 32 words apart
  for (unsigned g : {2u, 4u, 8u, 16u, 32u})
    for (unsigned gap : {1u, 32u * 4 / W, 2u}) {
      add("groups", full, [&](unsigned l) { return (l / g) * gap; });
      add("groups-interleaved", full, [&](unsigned l) { return (l % (32 / g)) * gap; });
    }
  // k distinct words in one bank, each hit by m lanes; the other lanes distinct banks
  for (unsigned k : {1u, 2u, 3u, 4u, 8u})
    for (unsigned m : {1u, 2u, 4u}) {
      if (k * m > 32) continue;
      add("bank-words", full, [&](unsigned l) {
        if (l < k * m) return (l / m) * (128 / W) * 1u;  // bank 0, word (l/m)*32
        return (l * (W == 8 ? 1 : 1)) + 0u;                 // distinct words
      });
    }
  // random addresses in windows, random masks
  for (unsigned win : {128u, 256u, 512u, 1024u, 4096u})
    for (int rep = 0; rep < 30; ++rep) {
      unsigned mask = rep % 3 == 0 ? full : (rep % 3 == 1 ? (unsigned)rng() : (unsigned)rng() & (unsigned)rng());
      if (!mask) mask = 1;
      std::vector<unsigned> v(32);
      for (auto &x : v) x = rng() % (win / W);
      add("random", mask, [&](unsigned l) { return v[l]; });
    }
  // strides with random masks
  for (int rep = 0; rep < 40; ++rep) {
    unsigned s = rng() % 34, mask = (unsigned)rng();
    if (!mask) mask = 1;
    add("stride-mask", mask, [&](unsigned l) { return l * s; });
  }
  // 2-D tile columns: row pitch p elements, lanes walk rows
  for (unsigned p : {8u, 16u, 17u, 32u, 33u, 64u, 65u})
    add("column", full, [&](unsigned l) { return l * p + 1; });
  // few lanes active, same address vs same bank
  for (unsigned n : {1u, 2u, 3u, 5u, 16u}) {
    unsigned mask = n == 32 ? full : ((1u << n) - 1);
    add("few-same", mask, [&](unsigned) { return 7u; });
    add("few-bank", mask, [&](unsigned l) { return l * (128 / W); });
  }
  // random groups sharing addresses: 32 lanes over d distinct addresses in a window
  for (unsigned d : {2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u})
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<unsigned> a(d), v(32);
      for (auto &x : a) x = rng() % (1024 / W);
      for (auto &x : v) x = a[rng() % d];
      add("random-shared", rep % 2 ? full : (unsigned)rng() | 1u, [&](unsigned l) { return v[l]; });
    }
  return P;
}

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "patterns.csv", "w");
  unsigned *dOffs; unsigned long long *dOut;
  cudaMalloc(&dOffs, 32 * 4); cudaMalloc(&dOut, 32 * 8);
  fprintf(f, "launch,op,width,kind,mask");
  for (int i = 0; i < 32; ++i) fprintf(f, ",o%d", i);
  fprintf(f, "\n");
  unsigned launch = 0;
  for (int op = 0; op < NUM_OPS; ++op) {
    std::mt19937 rng(1234 + OpWidth[op]);
    auto P = patterns(OpWidth[op], rng);
    for (auto &p : P) {
      cudaMemcpy(dOffs, p.off, 128, cudaMemcpyHostToDevice);
      Kernels[op]<<<1, 32>>>(dOffs, p.mask, dOut);
      fprintf(f, "%u,%s,%u,%s,0x%08x", launch++, OpNames[op], OpWidth[op], p.kind, p.mask);
      for (int i = 0; i < 32; ++i) fprintf(f, ",%u", p.off[i]);
      fprintf(f, "\n");
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "launches %u: %s\n", launch, cudaGetErrorString(e));
  fclose(f);
  return e != cudaSuccess;
}
