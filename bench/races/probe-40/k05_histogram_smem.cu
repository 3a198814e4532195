// EXPECT: cudagraph-shared-race line 12
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int NBINS = 256;

// Byte histogram: block-private bins in shared memory, merged with global atomics.
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist,
                             int n) {
  __shared__ unsigned int bins[NBINS];
  bins[threadIdx.x] = 0;  // <bug>
#ifdef BUGGY
  // counting starts while other warps may still be clearing
#else
  __syncthreads();
#endif
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
  __syncthreads();
  const unsigned int c = bins[threadIdx.x];
  if (c) atomicAdd(&hist[threadIdx.x], c);
}

int main() {
  const int n = 1 << 16;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; ++i) h[i] = (unsigned char)((i * 131) ^ (i >> 3));
  unsigned char* dd;
  unsigned int* dh;
  cudaMalloc(&dd, n);
  cudaMalloc(&dh, NBINS * 4);
  cudaMemset(dh, 0, NBINS * 4);
  cudaMemcpy(dd, h.data(), n, cudaMemcpyHostToDevice);
  histogram256<<<8, NBINS>>>(dd, dh, n);
  std::vector<unsigned int> out(NBINS);
  cudaMemcpy(out.data(), dh, NBINS * 4, cudaMemcpyDeviceToHost);
  printf("h[0]=%u %s\n", out[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dd); cudaFree(dh);
  return 0;
}
