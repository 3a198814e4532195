// EXPECT: cudagraph-shared-race line 12
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

// Block-wide sum: warp shuffles, one slot per warp, warp 0 folds the slots and
// leaves the total in red[0] for everybody.
__device__ __forceinline__ float block_sum(float v, float* red) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane == 0) red[warp] = v;  // <bug>
  __syncthreads();
  if (warp == 0) {
    float t = lane < (int)(blockDim.x >> 5) ? red[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
    if (lane == 0) red[0] = t;
  }
  __syncthreads();
  return red[0];
}

__global__ void layernorm(const float* __restrict__ x, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ y, int cols,
                          float eps) {
  __shared__ float red[32];
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;

  float local = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) local += xr[c];
  const float mean = block_sum(local, red) / cols;
#ifdef BUGGY
  // second reduction starts right away on the same buffer
#else
  __syncthreads();  // everyone has read red[0] before it is reused
#endif
  float var = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float d = xr[c] - mean;
    var += d * d;
  }
  const float rstd = rsqrtf(block_sum(var, red) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}

int main() {
  const int rows = 4, cols = 1024;
  std::vector<float> h(rows * cols), g(cols, 1.f), b(cols, 0.f);
  for (int i = 0; i < rows * cols; ++i) h[i] = (float)(i % 29) * 0.1f;
  float *dx, *dy, *dg, *db;
  cudaMalloc(&dx, h.size() * 4);
  cudaMalloc(&dy, h.size() * 4);
  cudaMalloc(&dg, cols * 4);
  cudaMalloc(&db, cols * 4);
  cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g.data(), cols * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), cols * 4, cudaMemcpyHostToDevice);
  layernorm<<<rows, 256>>>(dx, dg, db, dy, cols, 1e-5f);
  cudaMemcpy(h.data(), dy, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("y[1]=%f %s\n", h[1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dx); cudaFree(dy); cudaFree(dg); cudaFree(db);
  return 0;
}
