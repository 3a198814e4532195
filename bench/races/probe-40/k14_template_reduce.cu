// EXPECT: cudagraph-shared-race line 32
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

// Row sums for rows whose block size need not be a power of two (head dims 64, 96).
// The tree halves the live length each step, rounding up for odd lengths.
template <int BS>
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float s[BS];
  const int tid = threadIdx.x;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float v = 0.f;
  if constexpr (BS % 4 == 0) {
    // 16-byte loads when every row start stays aligned
    for (int c = tid * 4; c + 3 < cols; c += BS * 4) {
      const float4 q = *reinterpret_cast<const float4*>(xr + c);
      v += q.x + q.y + q.z + q.w;
    }
  } else {
    for (int c = tid; c < cols; c += BS) v += xr[c];
  }
  s[tid] = v;
  __syncthreads();
#pragma unroll
  for (int len = BS; len > 1;) {
#ifdef BUGGY
    const int half = len / 2;
#else
    const int half = (len + 1) / 2;
#endif
    if (tid < len - half) s[tid] += s[tid + half];  // <bug>
    __syncthreads();
    len = half;
  }
  if (tid == 0) y[blockIdx.x] = s[0];
}

int main() {
  const int rows = 8, cols = 384 * 4;
  std::vector<float> h(rows * cols, 1.f), o(rows);
  float *dx, *dy;
  cudaMalloc(&dx, h.size() * 4);
  cudaMalloc(&dy, rows * 4);
  cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  row_sum<96><<<rows, 96>>>(dx, dy, cols);
  cudaMemcpy(o.data(), dy, rows * 4, cudaMemcpyDeviceToHost);
  printf("s96=%f\n", o[0]);
  row_sum<64><<<rows, 64>>>(dx, dy, cols);
  cudaMemcpy(o.data(), dy, rows * 4, cudaMemcpyDeviceToHost);
  printf("s64=%f %s\n", o[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dx); cudaFree(dy);
  return 0;
}
