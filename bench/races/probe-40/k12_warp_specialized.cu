// EXPECT: cudagraph-barrier-divergence line 20
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TILE = 256;
constexpr int THREADS = 128;  // warp 0 loads, warps 1-3 compute

// Warp-specialised streaming kernel: a producer warp stages each tile in shared
// memory, the consumer warps apply a 3-tap filter to it.
__global__ void staged_filter(const float* __restrict__ in, float* __restrict__ out, int ntiles) {
  __shared__ float buf[TILE + 2];
  const int warp = threadIdx.x >> 5;
  const int lane = threadIdx.x & 31;
  for (int t = 0; t < ntiles; ++t) {
    const float* src = in + (size_t)t * TILE;
    if (warp == 0) {
      for (int i = lane; i < TILE + 2; i += 32) buf[i] = src[i];
#ifdef BUGGY
      __syncthreads();  // <bug>
    } else {
      __syncthreads();
      for (int i = threadIdx.x - 32; i < TILE; i += THREADS - 32)
        out[(size_t)t * TILE + i] = 0.25f * buf[i] + 0.5f * buf[i + 1] + 0.25f * buf[i + 2];
    }
#else
    }
    __syncthreads();
    if (warp != 0) {
      for (int i = threadIdx.x - 32; i < TILE; i += THREADS - 32)
        out[(size_t)t * TILE + i] = 0.25f * buf[i] + 0.5f * buf[i + 1] + 0.25f * buf[i + 2];
    }
#endif
    __syncthreads();  // tile consumed before the producer overwrites it
  }
}

int main() {
  const int ntiles = 16;
  std::vector<float> h(ntiles * TILE + 2);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (float)(i % 11);
  float *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, ntiles * TILE * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  staged_filter<<<1, THREADS>>>(din, dout, ntiles);
  cudaMemcpy(h.data(), dout, ntiles * TILE * 4, cudaMemcpyDeviceToHost);
  printf("o[3]=%f %s\n", h[3], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout);
  return 0;
}
