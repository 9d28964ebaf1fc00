// Kernels launched from host.cu only, with the runtime API.
#pragma once

__global__ void gather(float *out) {
  __shared__ float rows[32][32];
  out[threadIdx.x] = rows[threadIdx.x][threadIdx.y];
}

__global__ void widened(float *out) {
  __shared__ double d[64];
  out[threadIdx.x] = float(d[(threadIdx.x * 2) % 64]);
}
