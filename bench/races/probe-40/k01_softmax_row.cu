// EXPECT: cudagraph-shared-race line 38
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <vector>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

// One block per row; row max, then sum of exp, each through warp shuffles and a
// per-warp shared slot; thread 0 folds the warp results and broadcasts a scalar.
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float red_max[kWarps];
  __shared__ float red_sum[kWarps];
  __shared__ float row_max;
  __shared__ float row_sum;
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;

  float m = -FLT_MAX;
  for (int c = tid; c < cols; c += kThreads) m = fmaxf(m, xr[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (lane == 0) red_max[warp] = m;
  __syncthreads();
  if (tid == 0) {
    float mm = red_max[0];
    for (int w = 1; w < kWarps; ++w) mm = fmaxf(mm, red_max[w]);
    row_max = mm;
  }
#ifdef BUGGY
  // (the broadcast of row_max is read straight away)
#else
  __syncthreads();
#endif
  const float mx = row_max;  // <bug>

  float s = 0.f;
  for (int c = tid; c < cols; c += kThreads) s += __expf(xr[c] - mx);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) red_sum[warp] = s;
  __syncthreads();
  if (tid == 0) {
    float ss = 0.f;
    for (int w = 0; w < kWarps; ++w) ss += red_sum[w];
    row_sum = ss;
  }
  __syncthreads();
  const float inv = 1.f / row_sum;
  for (int c = tid; c < cols; c += kThreads) yr[c] = __expf(xr[c] - mx) * inv;
}

int main() {
  const int rows = 8, cols = 1000;
  std::vector<float> h(rows * cols);
  for (int i = 0; i < rows * cols; ++i) h[i] = (float)((i * 37) % 101) / 17.f;
  float *dx, *dy;
  cudaMalloc(&dx, h.size() * sizeof(float));
  cudaMalloc(&dy, h.size() * sizeof(float));
  cudaMemcpy(dx, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  softmax_rows<<<rows, kThreads>>>(dx, dy, cols);
  cudaMemcpy(h.data(), dy, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printf("y[0]=%f %s\n", h[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
