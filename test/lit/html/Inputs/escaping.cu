// Source text reaches the page as text, never as markup.
template <typename T> __global__ void shifted(T *out, int n) {
  __shared__ T s[32 * 32];
  bool inside = threadIdx.x < 32 && n > 0; // a < b && c > d
  s[threadIdx.x] = out[threadIdx.x] + (inside ? 1 : 0);
  __syncthreads(); // <script>alert("x")</script> & <b>bold</b>
  out[threadIdx.x] = s[(threadIdx.x << 5) & 1023];
}

void launch(float *o) { shifted<float><<<1, 32>>>(o, 4); }
