// Which lanes run an access may depend on per-thread values compared with
// blockIdx or the problem size (a Dirichlet boundary: i == 0 || i == nx - 1;
// a halo thread whose neighbour lies outside the grid). Removing lanes never
// adds distinct words to a bank, so an access of at most 4 bytes that is
// conflict-free with every lane is one wavefront whichever lanes run it, in
// every block: exact. A conflicted one stays a bound (the boundary blocks may
// run it with fewer lanes, and conflict less), and so does a wider one.
//
// A variable set only on some paths (ind_h below, set only for halo threads)
// is an undefined value on the others; the compiler's merge of it reads as
// the value the defining path gives, so its address is known.
// RUN: %cbl --block-dim=32,8 --format=json %s | python3 %S/../Inputs/records.py | %FileCheck %s
// RUN: %cbl --block-dim=32,8 --format=json %s | %FileCheck %s --check-prefix=JSON

__global__ void plane(int nx, int ny, const float *in, float *out) {
  __shared__ float u[10 * 34];
  __shared__ double wide[8 * 34];
  int k = threadIdx.x + threadIdx.y * 32;
  int i = threadIdx.x + blockIdx.x * 32, j = threadIdx.y + blockIdx.y * 8;
  int ind = (threadIdx.y + 1) * 34 + threadIdx.x + 1;
  int ind_h, halo = k < 2 * 32;
  if (halo) {
    int hj = threadIdx.y * 9 - 1;
    ind_h = (hj + 1) * 34 + threadIdx.x + 1;
    int gj = hj + blockIdx.y * 8;
    halo = gj >= 0 && gj < ny && i < nx;
  }
  if (halo)
    u[ind_h + 340] = in[k];
  // CHECK: plane:[[# @LINE-1]]:5 st 4 exact 1-way 1/1
  u[ind] = in[i + j * nx];
  __syncthreads();
  float v;
  if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1)
    v = u[ind];
  else
    v = u[ind - 1] + u[ind + 34];
  // CHECK: plane:[[# @LINE-1]]:9 ld 4 exact 1-way 1/1
  // CHECK: plane:[[# @LINE-2]]:22 ld 4 exact 1-way 1/1
  // JSON: "boundary": "which lanes run it depends on 'blockIdx.y', 'blockIdx.x', 'nx', 'ny'; conflict-free whichever do: one wavefront per execution"
  if (!(i == 0 || i == nx - 1))
    v += u[threadIdx.x * 2];
  // CHECK: plane:[[# @LINE-1]]:10 ld 4 bound 2-way 2/1
  if (!(i == 0 || i == nx - 1))
    v += float(wide[ind - 34]);
  // CHECK: plane:[[# @LINE-1]]:16 ld 8 bound 1-way 2/2
  out[i + j * nx] = v;
}

// idx is set only where ok starts true; the merge after the if has three
// ways in, one of them undefined (kept in 32 bits by its uses in the loop).
__global__ void carried(int n, int nz, const int *in, float *out) {
  __shared__ float u[3 * 128];
  int t = threadIdx.x + threadIdx.y * 32, idx, ok = t < 48;
  if (ok) {
    if (t < 32)
      idx = t + 32;
    else
      idx = (t - 32) * 33 % 32;
    int g = t + blockIdx.x * 32;
    ok = g >= 0 && g < n && in[g] != 7;
  }
  for (int z = 0; z < nz; z++) {
    if (ok) {
      u[idx] = u[idx + 128];
      // CHECK: carried:[[# @LINE-1]]:7 st 4 exact 1-way 1/1
      // CHECK: carried:[[# @LINE-2]]:16 ld 4 exact 1-way 1/1
    }
    __syncthreads();
    out[t] += u[t];
  }
}

int main(int argc, char **) { plane<<<dim3(4, 4), dim3(32, 8)>>>(argc, argc, 0, 0);
  carried<<<dim3(4, 4), dim3(32, 8)>>>(argc, argc, 0, 0);
}
