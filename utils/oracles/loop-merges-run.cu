// Runs the from-a-word-other-than-0 loops of loop-merges.cu for each trip
// count, one launch each, so that Nsight Compute's SASS source page gives how
// many times each LDS/STS of them executed (2026-12-05, on the device machine):
//   nvcc -arch=sm_90 -O3 -lineinfo loop-merges-run.cu -o run
//   ncu --section SourceCounters -f -o rep ./run
//   ncu -i rep.ncu-rep --page source --csv --print-source sass > source.csv
// Measured on an H200 (2026-12-05): test/data/h200-loop-offsets.csv gives, per
// kernel and trip count, how many 32-, 64- and 128-bit LDS (STS for the
// stores) of the loop's line executed (one warp, one lane or every lane: one
// instruction each). With t words from word o and m = t / 4 = 4a + 2b + c:
// from a 16-byte boundary, m LDS.128 and t % 4 LDS; from an odd word, m
// LDS.128 and a + b + c + t % 4 LDS; from word 2, LDS.64 pairs around the
// LDS.128s; stores from word 1, the aligned pieces of each run; from a
// run-time start, no unrolling (t LDS).
#include "loop-merges.cu"
#include <cstdio>

int main() {
  float *out, *in;
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMalloc(&in, 8 * 1024 * sizeof(float));
  cudaMemset(in, 0, 8 * 1024 * sizeof(float));
  for (int n = 0; n <= 17; ++n) {
    lane_sum_from1<<<1, 32>>>(out, n);
    lane_sum_from2<<<1, 32>>>(out, n);
    lane_sum_from3<<<1, 32>>>(out, n);
    lane_sum_from4<<<1, 32>>>(out, n);
    uniform_sum_from1<<<1, 32>>>(out, n);
    lane_store_from1<<<1, 32>>>(out, in, n);
  }
  for (int k = 0; k <= 5; ++k)
    lane_sum_fromk<<<1, 32>>>(out, k, 13);
  for (int b = 32; b <= 1024; b += 32)
    lane_max_from1_warps<<<1, b>>>(out);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
