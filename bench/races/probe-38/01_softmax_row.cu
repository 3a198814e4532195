// EXPECT(BUGGY): cudagraph-shared-race line 38 (also accepted: lines 31,33,43)
// Row softmax (LLM logits): one block of 256 threads per row, block max / sum
// through per-warp partials in shared memory.
#include <cuda_runtime.h>
#include <cstdio>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float s_red[32];
  __shared__ float s_max, s_sum;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int nwarps = blockDim.x >> 5;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;

  float m = -FLT_MAX;
  for (int c = tid; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  m = warp_max(m);
  if (lane == 0) s_red[warp] = m;
  __syncthreads();
  if (warp == 0) {
    float v = lane < nwarps ? s_red[lane] : -FLT_MAX;  //@a
    v = warp_max(v);
    if (lane == 0) s_max = v;  //@a
  }
#ifndef BUGGY
  __syncthreads();
#endif
  const float rmax = s_max;  //@@

  float s = 0.f;
  for (int c = tid; c < cols; c += blockDim.x) s += __expf(xr[c] - rmax);
  s = warp_sum(s);
  if (lane == 0) s_red[warp] = s;  //@a
  __syncthreads();
  if (warp == 0) {
    float v = lane < nwarps ? s_red[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) s_sum = v;
  }
  __syncthreads();
  const float inv = 1.f / s_sum;
  for (int c = tid; c < cols; c += blockDim.x) yr[c] = __expf(xr[c] - rmax) * inv;
}

void launch_softmax(const float* x, float* y, int rows, int cols, cudaStream_t st) {
  softmax_rows<<<rows, 256, 0, st>>>(x, y, cols);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 64, cols = 1000;
  float *x, *y;
  cudaMalloc(&x, rows * cols * sizeof(float)); cudaMalloc(&y, rows * cols * sizeof(float));
  cudaMemset(x, 0, rows * cols * sizeof(float));
  launch_softmax(x, y, rows, cols, 0);
  cudaError_t e = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(e));
  return 0;
}
#endif
