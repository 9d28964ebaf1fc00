// RUN: %cbl --explain %s 2>&1 | %FileCheck %s --check-prefix=ALL
// RUN: %cbl --explain-at=explain-filter.cu:15 %s 2>&1 | %FileCheck %s --check-prefix=AT --implicit-check-not=remark:
// RUN: %cbl --explain-function='strided*' %s 2>&1 | %FileCheck %s --check-prefix=FN --implicit-check-not=remark:
// RUN: %cbl --explain-array=other %s 2>&1 | %FileCheck %s --check-prefix=ARR --implicit-check-not=remark:
// RUN: %expect-exit 2 %cbl --explain-at=nowhere %s 2>&1 | %FileCheck %s --check-prefix=BAD
// --explain starts with a summary (accesses by status, the worst conflicts,
// what is not exact and why), then the lane tables; --explain-at,
// --explain-function and --explain-array pick the accesses to detail.
__global__ void strided(float *out, const int *idx) {
  __shared__ float s[1024];
  __shared__ float other[64];
  s[threadIdx.x] = 0;
  other[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[4 * threadIdx.x] + s[idx[threadIdx.x]];
}
__global__ void plain(float *out) {
  __shared__ float t[32];
  out[threadIdx.x] = t[threadIdx.x];
}
int main() { float *o; int *i; strided<<<1, 32>>>(o, i); plain<<<1, 32>>>(o); }
// ALL: explain: 5 shared accesses (4 exact, 1 data-dependent) in 2 functions
// ALL-NEXT: explain: 1 with a bank conflict, the worst first:
// ALL-NEXT:   {{.*}}explain-filter.cu:15:22: load 's[4 * threadIdx.x]' in 'strided': 4-way (4 wavefronts, ideal 1)
// ALL-NEXT: explain: not exact, by reason:
// ALL-NEXT:   1  data-dependent: {{.+}}
// ALL: remark: load of 4 bytes from 't' in 'plain'
// AT: explain: 2 shared accesses (1 exact, 1 data-dependent) in 1 function
// AT: explain-filter.cu:15:22: remark: load of 4 bytes from 's' in 'strided' (s[4 * threadIdx.x]): 4-way bank conflict
// AT: explain-filter.cu:15:43: remark: load of 4 bytes from 's' in 'strided' (s[idx[threadIdx.x]]): data-dependent
// FN: explain: 4 shared accesses (3 exact, 1 data-dependent) in 1 function
// FN-COUNT-4: remark: {{load|store}} of 4 bytes from '{{s|other}}' in 'strided'
// ARR: explain: 1 shared access (1 exact) in 1 function
// ARR: remark: store of 4 bytes from 'other' in 'strided' (other[threadIdx.x]): conflict-free
// BAD: cuda-bank-lint: error: --explain-at expects FILE:LINE[:COL], not 'nowhere'
