// EXPECT: cudagraph-shared-race line 44
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BM = 32, BN = 32, BK = 32;
constexpr int TX = 32, TY = 8;  // each thread owns 4 rows of one column

// GEMM with a column-major C: the main loop's A/B tiles and the epilogue's C
// staging tile share one shared-memory union (as CUTLASS-style kernels do).
union SharedStorage {
  struct {
    float A[BM][BK];
    float B[BK][BN];
  } main;
  float C[BN][BM + 1];
};

__global__ void gemm_colmajor_out(const float* __restrict__ A, const float* __restrict__ B,
                                  float* __restrict__ C, int M, int N, int K) {
  __shared__ SharedStorage smem;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[BM / TY] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += BK) {
    __syncthreads();  // previous tiles fully consumed
    for (int r = ty; r < BM; r += TY) {
      smem.main.A[r][tx] = A[(m0 + r) * K + k0 + tx];
      smem.main.B[r][tx] = B[(k0 + r) * N + n0 + tx];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BM / TY; ++i) {
      const int r = ty + i * TY;
      for (int k = 0; k < BK; ++k) acc[i] += smem.main.A[r][k] * smem.main.B[k][tx];
    }
  }
#ifdef BUGGY
  // the epilogue reuses the operand tiles' bytes straight after the main loop
#else
  __syncthreads();
#endif
#pragma unroll
  for (int i = 0; i < BM / TY; ++i) smem.C[tx][ty + i * TY] = acc[i];  // <bug>
  __syncthreads();
  for (int c = ty; c < BN; c += TY) C[(size_t)(n0 + c) * M + m0 + tx] = smem.C[c][tx];
}

int main() {
  const int M = 128, N = 128, K = 128;
  std::vector<float> a(M * K, 1.f), b(K * N, 0.5f), c(M * N);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, a.size() * 4);
  cudaMalloc(&dB, b.size() * 4);
  cudaMalloc(&dC, c.size() * 4);
  cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  dim3 block(TX, TY), grid(N / BN, M / BM);
  gemm_colmajor_out<<<grid, block>>>(dA, dB, dC, M, N, K);
  cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost);
  printf("c[0]=%f %s\n", c[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return 0;
}
