// EXPECT(BUGGY): cudagraph-shared-race line 25 (also accepted: lines 19,20)
// W8A8 int8 GEMM tile (16x16 threads) with per-row activation scales and per-column
// weight scales, K loop over 16-wide tiles.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

constexpr int T = 16;

__global__ void qgemm_i8(const int8_t* __restrict__ A, const int8_t* __restrict__ B,
                         const float* __restrict__ sa, const float* __restrict__ sb,
                         float* __restrict__ C, int M, int N, int K) {
  __shared__ int8_t sA[T][T + 4];
  __shared__ int8_t sB[T][T + 4];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  int acc = 0;
  for (int k0 = 0; k0 < K; k0 += T) {
    sA[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : (int8_t)0;  //@a
    sB[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : (int8_t)0;  //@a
#ifndef BUGGY
    __syncthreads();
#endif
#pragma unroll
    for (int kk = 0; kk < T; ++kk) acc += (int)sA[ty][kk] * (int)sB[kk][tx];  //@@
    __syncthreads();
  }
  if (row < M && col < N) C[(size_t)row * N + col] = (float)acc * sa[row] * sb[col];
}

void launch_qgemm(const int8_t* A, const int8_t* B, const float* sa, const float* sb, float* C, int M,
                  int N, int K, cudaStream_t st) {
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  qgemm_i8<<<grid, block, 0, st>>>(A, B, sa, sb, C, M, N, K);
}

#ifdef WITH_MAIN
int main() {
  const int M = 64, N = 64, K = 128;
  int8_t *A, *B; float *sa, *sb, *C;
  cudaMalloc(&A, M * K); cudaMalloc(&B, K * N); cudaMalloc(&sa, M * 4); cudaMalloc(&sb, N * 4);
  cudaMalloc(&C, M * N * 4);
  cudaMemset(A, 0, M * K); cudaMemset(B, 0, K * N); cudaMemset(sa, 0, M * 4); cudaMemset(sb, 0, N * 4);
  launch_qgemm(A, B, sa, sb, C, M, N, K, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
