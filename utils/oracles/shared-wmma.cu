// Single-instruction oracle for WMMA fragment loads and stores on shared
// memory (sm_90): one warp, one wmma::load_matrix_sync or store_matrix_sync
// per launch, at a base byte offset and a leading dimension (elements).
// Writes wmma-launches.csv (one row per launch); run under Nsight Compute
// and join with utils/oracles/wmma_table.py into test/data/h100-wmma.csv
// (docs/bank-model.md). The SASS of each probe (cuobjdump -sass) shows which
// instructions one fragment operation is.
//
//   nvcc -arch=sm_90 -std=c++17 -o shared-wmma shared-wmma.cu
//   ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//       l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum ./shared-wmma wmma-launches.csv > ncu.csv
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr unsigned BufBytes = 32768; // 16 rows of up to 1024 bytes, plus offsets

// Fill: BufBytes / 4 words written by 32 lanes, conflict-free (BufBytes/128
// store wavefronts); the closing read is one conflict-free load wavefront.
template <class T> __device__ void fill(unsigned char *buf) {
  for (unsigned i = threadIdx.x; i < BufBytes / 4; i += 32)
    reinterpret_cast<unsigned *>(buf)[i] = 0x3c003c00u; // 1.0 in half
}

template <class Frag, class T>
__device__ void loadProbe(unsigned char *buf, unsigned off, unsigned ldm, float *out) {
  Frag f;
  wmma::load_matrix_sync(f, reinterpret_cast<const T *>(buf + off), ldm);
  float s = 0;
  for (int i = 0; i < f.num_elements; i++)
    s += float(f.x[i]);
  out[threadIdx.x] = s;
}

// Loads: fragment kind K (0 A, 1 B), layout L (0 row, 1 col), element E
// (0 half m16n16k16, 1 bf16 m16n16k16, 2 tf32 m16n16k8).
template <int K, int L, int E>
__global__ void load(unsigned off, unsigned ldm, float *out) {
  __shared__ __align__(128) unsigned char buf[BufBytes];
  fill<unsigned>(buf);
  __syncthreads();
  using Layout = typename std::conditional<L == 0, wmma::row_major, wmma::col_major>::type;
  using Use = typename std::conditional<K == 0, wmma::matrix_a, wmma::matrix_b>::type;
  if constexpr (E == 0)
    loadProbe<wmma::fragment<Use, 16, 16, 16, half, Layout>, half>(buf, off, ldm, out);
  else if constexpr (E == 1)
    loadProbe<wmma::fragment<Use, 16, 16, 16, __nv_bfloat16, Layout>, __nv_bfloat16>(buf, off, ldm, out);
  else
    loadProbe<wmma::fragment<Use, 16, 16, 8, wmma::precision::tf32, Layout>, float>(buf, off, ldm, out);
  out[32 + threadIdx.x] = reinterpret_cast<unsigned *>(buf)[threadIdx.x];
}

// Accumulators (float, m16n16k16): D 0 load, 1 store; L 0 row, 1 col.
template <int D, int L>
__global__ void accumulator(unsigned off, unsigned ldm, float *out) {
  __shared__ __align__(128) unsigned char buf[BufBytes];
  fill<unsigned>(buf);
  __syncthreads();
  wmma::layout_t Layout = L == 0 ? wmma::mem_row_major : wmma::mem_col_major;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  if (D == 0) {
    wmma::load_matrix_sync(f, reinterpret_cast<const float *>(buf + off), ldm, Layout);
    float s = 0;
    for (int i = 0; i < f.num_elements; i++)
      s += f.x[i];
    out[threadIdx.x] = s;
  } else {
    wmma::fill_fragment(f, float(threadIdx.x));
    wmma::store_matrix_sync(reinterpret_cast<float *>(buf + off), f, ldm, Layout);
  }
  __syncthreads();
  out[32 + threadIdx.x] = reinterpret_cast<unsigned *>(buf)[threadIdx.x];
}

typedef void (*Kern)(unsigned, unsigned, float *);
struct Probe {
  const char *Name;
  Kern K;
  unsigned ElemBytes;
  const char *Dir;
};
static const Probe Probes[] = {
    {"load.a.row.f16", load<0, 0, 0>, 2, "ld"},   {"load.a.col.f16", load<0, 1, 0>, 2, "ld"},
    {"load.b.row.f16", load<1, 0, 0>, 2, "ld"},   {"load.b.col.f16", load<1, 1, 0>, 2, "ld"},
    {"load.a.row.bf16", load<0, 0, 1>, 2, "ld"},  {"load.a.col.bf16", load<0, 1, 1>, 2, "ld"},
    {"load.b.row.bf16", load<1, 0, 1>, 2, "ld"},  {"load.b.col.bf16", load<1, 1, 1>, 2, "ld"},
    {"load.a.row.tf32", load<0, 0, 2>, 4, "ld"},  {"load.a.col.tf32", load<0, 1, 2>, 4, "ld"},
    {"load.b.row.tf32", load<1, 0, 2>, 4, "ld"},  {"load.b.col.tf32", load<1, 1, 2>, 4, "ld"},
    {"load.c.row.f32", accumulator<0, 0>, 4, "ld"}, {"load.c.col.f32", accumulator<0, 1>, 4, "ld"},
    {"store.d.row.f32", accumulator<1, 0>, 4, "st"}, {"store.d.col.f32", accumulator<1, 1>, 4, "st"},
};

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "wmma-launches.csv", "w");
  float *out;
  cudaMalloc(&out, 64 * sizeof(float));
  fprintf(f, "launch,op,dir,elem_bytes,ldm,offset\n");
  unsigned launch = 0;
  // Leading dimensions in elements: multiples of 16 bytes (WMMA's rule),
  // padded and power-of-two strides; base offsets multiples of 32 bytes.
  const unsigned Ldm16[] = {16, 24, 32, 40, 64, 72, 128, 136};
  const unsigned Ldm32[] = {8, 12, 16, 20, 32, 36, 64, 68};
  const unsigned Offsets[] = {0, 64};
  for (const Probe &P : Probes) {
    const unsigned *Ldms = P.ElemBytes == 2 ? Ldm16 : Ldm32;
    unsigned N = P.ElemBytes == 2 ? sizeof(Ldm16) / 4 : sizeof(Ldm32) / 4;
    for (unsigned I = 0; I < N; ++I)
      for (unsigned Off : Offsets) {
        if (Ldms[I] < 16 && P.ElemBytes == 4 && P.Name[5] == 'c')
          continue; // accumulator rows are 16 wide
        if (Ldms[I] < 16 && P.ElemBytes == 4 && P.Name[0] == 's')
          continue;
        P.K<<<1, 32>>>(Off, Ldms[I], out);
        fprintf(f, "%u,%s,%s,%u,%u,%u\n", launch++, P.Name, P.Dir, P.ElemBytes, Ldms[I], Off);
      }
  }
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "launches %u: %s\n", launch, cudaGetErrorString(e));
  fclose(f);
  return e != cudaSuccess;
}
