// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int N = 256;

// Hillis-Steele inclusive scan with ping-pong buffers: each step reads one half and
// writes the other, so one barrier per step suffices.
__global__ void scan_pingpong(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float buf[2 * N];
  const int tid = threadIdx.x;
  int pout = 0, pin = 1;
  buf[pout * N + tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (int off = 1; off < N; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= off)
      buf[pout * N + tid] = buf[pin * N + tid] + buf[pin * N + tid - off];
    else
      buf[pout * N + tid] = buf[pin * N + tid];
    __syncthreads();
  }
  out[blockIdx.x * N + tid] = buf[pout * N + tid];
}

int main() {
  const int blocks = 4;
  std::vector<float> h(blocks * N, 1.f);
  float *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  scan_pingpong<<<blocks, N>>>(din, dout);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("last=%f %s\n", h[N - 1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout);
  return 0;
}
