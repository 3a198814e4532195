// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int N = 512;         // keys per block
constexpr int T = N / 2;       // one compare-exchange per thread per step

// Key/value bitonic sort (top-k candidate lists); each thread owns exactly one
// pair (lo, hi) per step, so a step's writes never meet another thread's.
__global__ void bitonic_kv(float* __restrict__ keys, int* __restrict__ vals) {
  __shared__ float sk[N];
  __shared__ int sv[N];
  const int tid = threadIdx.x;
  float* kb = keys + blockIdx.x * N;
  int* vb = vals + blockIdx.x * N;
  sk[tid] = kb[tid];
  sk[tid + T] = kb[tid + T];
  sv[tid] = vb[tid];
  sv[tid + T] = vb[tid + T];
  __syncthreads();
  for (int k = 2; k <= N; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      const int lo = 2 * tid - (tid & (j - 1));  // insert a zero bit at position log2(j)
      const int hi = lo + j;
      const bool desc = (lo & k) != 0;
      const float a = sk[lo], b = sk[hi];
      if ((a > b) != desc) {
        sk[lo] = b;
        sk[hi] = a;
        const int t = sv[lo];
        sv[lo] = sv[hi];
        sv[hi] = t;
      }
      __syncthreads();
    }
  }
  kb[tid] = sk[tid];
  kb[tid + T] = sk[tid + T];
  vb[tid] = sv[tid];
  vb[tid + T] = sv[tid + T];
}

int main() {
  const int blocks = 2;
  std::vector<float> k(blocks * N);
  std::vector<int> v(blocks * N);
  for (int i = 0; i < blocks * N; ++i) { k[i] = (float)((i * 104729) % 4099); v[i] = i; }
  float* dk;
  int* dv;
  cudaMalloc(&dk, k.size() * 4);
  cudaMalloc(&dv, v.size() * 4);
  cudaMemcpy(dk, k.data(), k.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice);
  bitonic_kv<<<blocks, T>>>(dk, dv);
  cudaMemcpy(k.data(), dk, k.size() * 4, cudaMemcpyDeviceToHost);
  printf("k0=%f k511=%f %s\n", k[0], k[N - 1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dk); cudaFree(dv);
  return 0;
}
