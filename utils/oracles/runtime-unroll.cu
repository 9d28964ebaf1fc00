// What ptxas makes of a single thread's loop over consecutive floats whose
// trip count is a run-time value (llm.c softmax_forward_kernel4's
// "for (i = 1; i < warpsPerBlock; i++) val = fmaxf(val, s[i])").
// Compiled with nvcc 13.0 -O3 -arch=sm_90 -lineinfo, read with nvdisasm -g on
// the H100 machine (2026-11-27): NVVM unrolls by 4 (PTX: ld.shared.f32 at
// +4, +8, +12, +16 of a 16-byte step, so never 16-byte aligned), and ptxas
// unrolls again and re-associates across iterations: LDS.128 of aligned
// 16-byte chunks (s[0..3], s[4..7], ...; s[0] read again though already
// loaded) and one LDS of the chunk's successor, all on the loop body's line.
// The tool keeps the source's 4-byte loads (one lane: the same cost,
// 1 wavefront, ideal 1, at any width); the measured rows of such loops have
// width 128 and so are not matched (docs/accuracy.md).
__global__ void k(float *out, int n) {
  extern __shared__ float s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    float val = s[0];
    for (int i = 1; i < n; i++)
      val = fmaxf(val, s[i]);
    out[0] = val;
  }
}
