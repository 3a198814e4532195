// EXPECT: cudagraph-barrier-divergence line 22
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BS = 256;
constexpr int R = 3;

// 7-point 1D stencil; the first R threads also fetch the left and right halos.
// Each block also reports its L1 change for a convergence test.
__global__ void stencil1d(const float* __restrict__ in, float* __restrict__ out,
                          float* __restrict__ resid, int n) {
  __shared__ float s[BS + 2 * R];
  __shared__ float red[BS];
  const int g = blockIdx.x * BS + threadIdx.x;
  const int l = threadIdx.x + R;
  s[l] = in[g];
  if (threadIdx.x < R) {
    s[l - R] = in[g - R >= 0 ? g - R : 0];
    s[l + BS] = in[g + BS < n ? g + BS : n - 1];
#ifdef BUGGY
    __syncthreads();  // <bug>
  }
#else
  }
  __syncthreads();
#endif
  float acc = 0.f;
#pragma unroll
  for (int k = -R; k <= R; ++k) acc += s[l + k];
  acc *= 1.f / (2 * R + 1);
  out[g] = acc;
  red[threadIdx.x] = fabsf(acc - s[l]);
  __syncthreads();
  for (int st = BS / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) red[threadIdx.x] += red[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) resid[blockIdx.x] = red[0];
}

int main() {
  const int n = 4096, blocks = n / BS;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = (float)(i % 13);
  float *din, *dout, *dres;
  cudaMalloc(&din, n * 4);
  cudaMalloc(&dout, n * 4);
  cudaMalloc(&dres, blocks * 4);
  cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice);
  stencil1d<<<blocks, BS>>>(din, dout, dres, n);
  cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  printf("o[5]=%f %s\n", h[5], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout); cudaFree(dres);
  return 0;
}
