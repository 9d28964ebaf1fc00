// RUN: %cbl --format=json %s | %FileCheck %s
// RUN: %cbl %s 2>&1 | %FileCheck %s --check-prefix=TEXT
// A threshold that splits the block at the edge of the data is exact for the
// warps inside, whether it guards the access (if (x < w && y < h)) or sends
// the threads outside home first (if (x >= w || y >= h) return; the threads
// left are those with !(x >= w) && !(y >= h)).
__global__ void guarded(float *out, int width, int height) {
  __shared__ float s[32][32];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    s[threadIdx.x][threadIdx.y] = out[y * width + x];
}
__global__ void returned(float *out, int width, int height) {
  __shared__ float s[32][32];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  s[threadIdx.x][threadIdx.y] = out[y * width + x];
}
int main(int argc, char **) {
  float *o;
  guarded<<<dim3(4, 4), dim3(32, 8)>>>(o, argc, argc);
  returned<<<dim3(4, 4), dim3(32, 8)>>>(o, argc, argc);
}
// CHECK: "boundary": "the cost of the warps whose lanes all pass the conditions on 'blockIdx.x', 'width', 'blockIdx.y', 'height'; a warp at the boundary runs it with fewer lanes and costs at most this",
// CHECK: "function": "guarded",
// CHECK: "status": "exact"
// CHECK: "boundary": "the cost of the warps whose lanes all pass the conditions on 'blockIdx.x', 'width', 'blockIdx.y', 'height'; a warp at the boundary runs it with fewer lanes and costs at most this",
// CHECK: "function": "returned",
// CHECK: "status": "exact"
// TEXT: boundary-guards.cu:12:5: warning: 32-way bank conflict writing 's'
// TEXT: boundary-guards.cu:20:3: warning: 32-way bank conflict writing 's'
