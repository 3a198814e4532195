// EXPECT: cudagraph-shared-race line 50
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int N = 256;        // elements per block
constexpr int T = N / 2;      // threads per block, two elements each

// Work-efficient (Blelloch) exclusive scan, then turned into an inclusive scan by
// shifting one place left and appending the block total.
__global__ void blelloch_inclusive(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[N];
  __shared__ float total;
  const int tid = threadIdx.x;
  const int base = blockIdx.x * N;
  s[2 * tid] = in[base + 2 * tid];
  s[2 * tid + 1] = in[base + 2 * tid + 1];

  int offset = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      s[bi] += s[ai];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    total = s[N - 1];
    s[N - 1] = 0.f;
  }
  for (int d = 1; d < N; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      const float t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
#ifdef BUGGY
  // the shift below reads the neighbour's pair
#else
  __syncthreads();
#endif
  out[base + 2 * tid] = s[2 * tid + 1];
  out[base + 2 * tid + 1] = (2 * tid + 2 < N) ? s[2 * tid + 2] : total;  // <bug>
}

int main() {
  const int blocks = 4;
  std::vector<float> h(blocks * N, 1.f);
  float *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  blelloch_inclusive<<<blocks, T>>>(din, dout);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("out[255]=%f %s\n", h[255], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout);
  return 0;
}
