// EXPECT: cudagraph-barrier-divergence line 26
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int N = 256;

// Sorts 256 keys per block in shared memory (bitonic network, one key per thread).
__global__ void bitonic_sort_block(float* __restrict__ keys) {
  __shared__ float s[N];
  const unsigned tid = threadIdx.x;
  float* blk = keys + blockIdx.x * N;
  s[tid] = blk[tid];
  __syncthreads();
  for (unsigned k = 2; k <= N; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      const unsigned ixj = tid ^ j;
      if (ixj > tid) {
        const bool ascending = (tid & k) == 0;
        const float a = s[tid], b = s[ixj];
        if ((a > b) == ascending) {
          s[tid] = b;
          s[ixj] = a;
        }
#ifdef BUGGY
        __syncthreads();  // <bug>
      }
#else
      }
      __syncthreads();
#endif
    }
  }
  blk[tid] = s[tid];
}

int main() {
  const int blocks = 4;
  std::vector<float> h(blocks * N);
  for (int i = 0; i < blocks * N; ++i) h[i] = (float)((i * 7919) % 1009);
  float* d;
  cudaMalloc(&d, h.size() * 4);
  cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  bitonic_sort_block<<<blocks, N>>>(d);
  cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("min=%f max=%f %s\n", h[0], h[N - 1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
