// Shared-memory histograms with atomics: per-block and per-warp copies.
#include <cuda_runtime.h>

#define NBINS 256

__global__ void histo_block(const unsigned char *data, unsigned *hist, int n) {
  __shared__ unsigned s_hist[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    atomicAdd(&hist[b], s_hist[b]);
}

template <int WARPS>
__global__ void histo_per_warp(const unsigned char *data, unsigned *hist, int n) {
  __shared__ unsigned s_hist[WARPS][NBINS];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int b = lane; b < NBINS; b += 32)
    s_hist[warp][b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[warp][data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
    unsigned sum = 0;
    for (int w = 0; w < WARPS; ++w)
      sum += s_hist[w][b];
    atomicAdd(&hist[b], sum);
  }
}

// Bug: written for a block of NBINS threads, launched with 1024.
__global__ void histo_one_bin_per_thread(const unsigned char *data, unsigned *hist, int n) {
  __shared__ unsigned s_hist[NBINS];
  s_hist[threadIdx.x] = 0; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[data[i]], 1u);
  __syncthreads();
  unsigned v = s_hist[threadIdx.x]; // EXPECT: cudagraph-shared-index-overflow
  if (v) atomicAdd(&hist[threadIdx.x], v);
}

void histogram(const unsigned char *d, unsigned *h, int n, cudaStream_t s) {
  histo_block<<<240, 512, 0, s>>>(d, h, n);
  histo_per_warp<8><<<240, 256, 0, s>>>(d, h, n);
  histo_one_bin_per_thread<<<120, 1024, 0, s>>>(d, h, n);
}
