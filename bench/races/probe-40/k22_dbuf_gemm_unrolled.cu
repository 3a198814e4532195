// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TILE = 16;
constexpr int KDIM = 128;  // fixed reduction depth (a projection of known width)

// Double-buffered tiled GEMM: tile k+1 is loaded into the other buffer while tile
// k is multiplied; one barrier per step is enough because the buffer written in
// step k was last read in step k-1, before that step's barrier.
__global__ void sgemm_dbuf(const float* __restrict__ A, const float* __restrict__ B,
                           float* __restrict__ C, int N) {
  __shared__ float As[2][TILE][TILE];
  __shared__ float Bs[2][TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  As[0][ty][tx] = A[row * KDIM + tx];
  Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
  float acc = 0.f;
#pragma unroll
  for (int kt = 0; kt < KDIM / TILE; ++kt) {
    const int cur = kt & 1;
    if (kt + 1 < KDIM / TILE) {
      As[cur ^ 1][ty][tx] = A[row * KDIM + (kt + 1) * TILE + tx];
      Bs[cur ^ 1][ty][tx] = B[((kt + 1) * TILE + ty) * N + col];
    }
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[cur][ty][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

int main() {
  const int M = 64, N = 64;
  std::vector<float> a(M * KDIM), b(KDIM * N), c(M * N);
  for (int i = 0; i < M * KDIM; ++i) a[i] = (float)(i % 3);
  for (int i = 0; i < KDIM * N; ++i) b[i] = (float)(i % 4);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, a.size() * 4);
  cudaMalloc(&dB, b.size() * 4);
  cudaMalloc(&dC, c.size() * 4);
  cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
  sgemm_dbuf<<<grid, block>>>(dA, dB, dC, N);
  cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost);
  printf("c[0]=%f %s\n", c[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return 0;
}
