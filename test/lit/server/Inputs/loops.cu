// Loop iterations whose verdict texts name the loop's line (lit server/memo.test).
__global__ void k(float *out, int n) {
  __shared__ float s[2048];
  for (int i = threadIdx.x; i < 1024; i = i * 2 + 32)
    s[i] = out[i];
  __syncthreads();
  for (int j = 0; j < n; ++j)
    out[threadIdx.x] += s[threadIdx.x * n + j];
}
void launch(float *o, int m) { k<<<1, 32>>>(o, m); }
