// Findings of every kind, for the concise text output (concise.test).
#define TILE 32
// A 32-way conflict with a verified padding fix.
__global__ void transposeTile(float *out, const float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A conflict no padding removes (a column and a diagonal): no fix-it.
__global__ void diagonal(float *out) {
  __shared__ float d[32][32];
  d[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = d[threadIdx.x][threadIdx.y] + d[threadIdx.x][(threadIdx.x + threadIdx.y) % 32];
}

// A conflict that depends on a parameter: a remark.
__global__ void strided(float *out, int stride) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * stride];
}

// A barrier half a warp skips.
__global__ void halfWarp(float *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = 0;
}

void launch(float *o, const float *i, int n) {
  transposeTile<<<1, dim3(TILE, TILE)>>>(o, i);
  diagonal<<<1, dim3(32, 32)>>>(o);
  strided<<<1, 32>>>(o, n);
  halfWarp<<<1, 64>>>(o);
}

// Instances that need different fix-its (a float and a double skew): no fix-it
// line in the concise output, "no fix-it" under --explain.
template <typename T>
__global__ void strideRead(T *out) {
  __shared__ T s[2048];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32 + 31];
}
void launchBoth(float *f, double *d) {
  strideRead<<<1, 64>>>(f);
  strideRead<<<1, 64>>>(d);
}
