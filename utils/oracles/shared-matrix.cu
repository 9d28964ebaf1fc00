// Single-instruction oracle for ldmatrix / stmatrix / cp.async on sm_90: one
// warp, one instruction per launch; lane i gives the byte offset offs[i] (a
// row address for ldmatrix/stmatrix, whose lanes must all take part; the
// destination for cp.async, lanes in mask). Writes patterns.csv; run under
// Nsight Compute and join with utils/oracles/matrix_table.py (docs/bank-model.md).
//
//   nvcc -arch=sm_90 -std=c++17 -o shared-matrix shared-matrix.cu
//   ./shared-matrix patterns.csv [op]   (op: only that operation)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <random>
#include <cuda_pipeline.h>

constexpr unsigned BufBytes = 16384;
#include "patterns.h"

enum Op { LDM_X1, LDM_X2, LDM_X4, LDM_X1_T, LDM_X4_T, STM_X1, STM_X2, STM_X4, STM_X4_T, CPA_CA4, CPA_CA8, CPA_CA16, CPA_CG16, NUM_OPS };
static const char *OpNames[] = {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x1.trans", "ldmatrix.x4.trans",
  "stmatrix.x1", "stmatrix.x2", "stmatrix.x4", "stmatrix.x4.trans", "cp.async.ca.4", "cp.async.ca.8", "cp.async.ca.16", "cp.async.cg.16"};
static const unsigned OpWidth[] = {16, 16, 16, 16, 16, 16, 16, 16, 16, 4, 8, 16, 16};
static bool fullMask(int op) { return op <= STM_X4_T; }

template <int OP>
__global__ void probe(const unsigned *offs, unsigned mask, unsigned *out, const uint4 *g) {
  __shared__ __align__(128) unsigned char buf[BufBytes];
  unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < BufBytes / 4; i += 32)
    reinterpret_cast<unsigned *>(buf)[i] = i;
  __syncthreads();
  unsigned a = (unsigned)__cvta_generic_to_shared(buf + offs[lane]);
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (OP == LDM_X1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  if (OP == LDM_X2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  if (OP == LDM_X4) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  if (OP == LDM_X1_T) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  if (OP == LDM_X4_T) asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  if (OP == STM_X1) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(lane));
  if (OP == STM_X2) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(lane), "r"(lane + 1));
  if (OP == STM_X4) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(lane), "r"(lane + 1), "r"(lane + 2), "r"(lane + 3));
  if (OP == STM_X4_T) asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(lane), "r"(lane + 1), "r"(lane + 2), "r"(lane + 3));
  if (OP >= CPA_CA4 && ((mask >> lane) & 1)) {
    const void *src = reinterpret_cast<const unsigned char *>(g) + lane * 16;
    if (OP == CPA_CA4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(a), "l"(src));
    if (OP == CPA_CA8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(a), "l"(src));
    if (OP == CPA_CA16) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(a), "l"(src));
    if (OP == CPA_CG16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(src));
  }
  if (OP >= CPA_CA4) asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[lane] = r0 + r1 + r2 + r3 + reinterpret_cast<unsigned *>(buf)[lane];
}

typedef void (*Kern)(const unsigned *, unsigned, unsigned *, const uint4 *);
static Kern Kernels[] = {probe<0>, probe<1>, probe<2>, probe<3>, probe<4>, probe<5>, probe<6>, probe<7>, probe<8>, probe<9>, probe<10>, probe<11>, probe<12>};

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "patterns.csv", "w");
  int only = argc > 2 ? atoi(argv[2]) : -1;
  unsigned *dOffs, *dOut; uint4 *g;
  cudaMalloc(&dOffs, 32 * 4); cudaMalloc(&dOut, 32 * 4); cudaMalloc(&g, 32 * 16);
  cudaMemset(g, 0, 32 * 16);
  writePatternHeader(f);
  unsigned launch = 0;
  for (int op = 0; op < NUM_OPS; ++op) {
    if (only >= 0 && op != only) continue;
    std::mt19937 rng(4321 + OpWidth[op]);
    auto P = patterns(OpWidth[op], rng);
    for (auto &p : P) {
      if (fullMask(op)) p.mask = 0xffffffffu;
      cudaMemcpy(dOffs, p.off, 128, cudaMemcpyHostToDevice);
      Kernels[op]<<<1, 32>>>(dOffs, p.mask, dOut, g);
      writePatternRow(f, launch++, OpNames[op], OpWidth[op], p);
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "launches %u: %s\n", launch, cudaGetErrorString(e));
  fclose(f);
  return e != cudaSuccess;
}
