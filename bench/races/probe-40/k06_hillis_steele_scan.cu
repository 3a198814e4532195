// EXPECT: cudagraph-shared-race line 17
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int N = 512;

// Inclusive scan of one 512-element segment per block (Hillis-Steele, in place).
__global__ void scan_segments(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int s[N];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * N;
  s[tid] = in[base + tid];
  __syncthreads();
  for (int off = 1; off < N; off <<= 1) {
#ifdef BUGGY
    if (tid >= off) s[tid] += s[tid - off];  // <bug>
    __syncthreads();
#else
    const int add = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += add;
    __syncthreads();
#endif
  }
  out[base + tid] = s[tid];
}

int main() {
  const int segs = 4;
  std::vector<int> h(segs * N);
  for (int i = 0; i < segs * N; ++i) h[i] = i % 3;
  int *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  scan_segments<<<segs, N>>>(din, dout);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("last=%d %s\n", h[N - 1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout);
  return 0;
}
