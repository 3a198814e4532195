// EXPECT: cudagraph-shared-race line 26
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BS = 256;

// "Reduction #6" shape: two loads per thread, tree in shared memory down to 64
// elements, then the last warp finishes alone.
__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[BS];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * (BS * 2) + tid;
  float v = 0.f;
  if (i < n) v = in[i];
  if (i + BS < n) v += in[i + BS];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = BS / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
#ifdef BUGGY
    // lockstep warp assumed: no volatile, no __syncwarp
    for (int off = 32; off > 0; off >>= 1) sdata[tid] += sdata[tid + off];  // <bug>
#else
    for (int off = 32; off > 0; off >>= 1) {
      const float t = sdata[tid] + sdata[tid + off];
      __syncwarp();
      sdata[tid] = t;
      __syncwarp();
    }
#endif
    if (tid == 0) out[blockIdx.x] = sdata[0];
  }
}

int main() {
  const int n = 1 << 14;
  const int blocks = n / (BS * 2);
  std::vector<float> h(n, 1.f), o(blocks);
  float *din, *dout;
  cudaMalloc(&din, n * 4);
  cudaMalloc(&dout, blocks * 4);
  cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice);
  reduce_sum<<<blocks, BS>>>(din, dout, n);
  cudaMemcpy(o.data(), dout, blocks * 4, cudaMemcpyDeviceToHost);
  printf("o[0]=%f %s\n", o[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout);
  return 0;
}
