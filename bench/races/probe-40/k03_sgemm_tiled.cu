// EXPECT: cudagraph-shared-race line 18
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TILE = 16;

// C[M x N] = A[M x K] * B[K x N], row-major, one 16x16 output tile per block.
__global__ void sgemm_tiled(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];  // <bug>
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
#ifdef BUGGY
    // next tile is loaded over the one other threads still multiply
#else
    __syncthreads();
#endif
  }
  C[row * N + col] = acc;
}

int main() {
  const int M = 128, N = 128, K = 128;
  std::vector<float> a(M * K), b(K * N), c(M * N);
  for (int i = 0; i < M * K; ++i) a[i] = (float)(i % 7);
  for (int i = 0; i < K * N; ++i) b[i] = (float)(i % 5);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, a.size() * 4);
  cudaMalloc(&dB, b.size() * 4);
  cudaMalloc(&dC, c.size() * 4);
  cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
  sgemm_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
  cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost);
  printf("c[0]=%f %s\n", c[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return 0;
}
