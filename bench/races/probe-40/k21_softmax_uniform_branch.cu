// EXPECT: none
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <vector>

constexpr int BS = 256;

// Softmax over rows whose length decides the path: short rows are cached in shared
// memory, long rows are streamed twice. Both paths reduce through the same buffer.
__device__ float block_reduce(float v, float* red, bool is_max) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int st = BS / 2; st > 0; st >>= 1) {
    if (tid < st) red[tid] = is_max ? fmaxf(red[tid], red[tid + st]) : red[tid] + red[tid + st];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();  // red is free again once everyone holds r
  return r;
}

__global__ void softmax_adaptive(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float red[BS];
  __shared__ float cache[1024];
  const int tid = threadIdx.x;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;
  if (cols <= 1024) {  // block-uniform: every thread takes the same arm
    float m = -FLT_MAX;
    for (int c = tid; c < cols; c += BS) {
      cache[c] = xr[c];
      m = fmaxf(m, cache[c]);
    }
    m = block_reduce(m, red, true);
    float s = 0.f;
    for (int c = tid; c < cols; c += BS) {
      cache[c] = __expf(cache[c] - m);
      s += cache[c];
    }
    s = block_reduce(s, red, false);
    for (int c = tid; c < cols; c += BS) yr[c] = cache[c] / s;
  } else {
    float m = -FLT_MAX;
    for (int c = tid; c < cols; c += BS) m = fmaxf(m, xr[c]);
    m = block_reduce(m, red, true);
    float s = 0.f;
    for (int c = tid; c < cols; c += BS) s += __expf(xr[c] - m);
    s = block_reduce(s, red, false);
    for (int c = tid; c < cols; c += BS) yr[c] = __expf(xr[c] - m) / s;
  }
}

int main() {
  const int rows = 4;
  for (int cols : {700, 3000}) {
    std::vector<float> h(rows * cols);
    for (int i = 0; i < rows * cols; ++i) h[i] = (float)(i % 23) * 0.3f;
    float *dx, *dy;
    cudaMalloc(&dx, h.size() * 4);
    cudaMalloc(&dy, h.size() * 4);
    cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
    softmax_adaptive<<<rows, BS>>>(dx, dy, cols);
    cudaMemcpy(h.data(), dy, h.size() * 4, cudaMemcpyDeviceToHost);
    printf("cols=%d y0=%f %s\n", cols, h[0], cudaGetErrorString(cudaGetLastError()));
    cudaFree(dx);
    cudaFree(dy);
  }
  return 0;
}
