// EXPECT(BUGGY): cudagraph-shared-race line 9 (also accepted: lines 14)
// 256-bin byte histogram with privatised shared bins (128 threads, grid-stride input).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

__global__ void hist256(const uint8_t* __restrict__ data, unsigned* __restrict__ hist, int n) {
  __shared__ unsigned s_hist[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) s_hist[i] = 0;  //@@
#ifndef BUGGY
  __syncthreads();
#endif
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&s_hist[data[i]], 1u);  //@a
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

void launch_hist(const uint8_t* data, unsigned* hist, int n, cudaStream_t st) {
  hist256<<<16, 128, 0, st>>>(data, hist, n);
}

#ifdef WITH_MAIN
int main() {
  const int n = 1 << 16;
  uint8_t* d; unsigned* h;
  cudaMalloc(&d, n); cudaMalloc(&h, 256 * 4);
  cudaMemset(d, 0, n); cudaMemset(h, 0, 256 * 4);
  launch_hist(d, h, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
