// EXPECT(BUGGY): cudagraph-shared-race line 28 (also accepted: lines 31)
// SGEMM 16x16 tile with double-buffered shared tiles: the next K tile is prefetched into
// the other buffer while this one is consumed, one barrier per iteration (M,N,K % 16 == 0).
#include <cuda_runtime.h>
#include <cstdio>

constexpr int T = 16;

__global__ void sgemm_dbuf(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                           int M, int N, int K) {
  __shared__ float sA[2][T][T];
  __shared__ float sB[2][T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  sA[0][ty][tx] = A[(size_t)row * K + tx];
  sB[0][ty][tx] = B[(size_t)ty * N + col];
  __syncthreads();
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += T) {
    const int buf = (k0 / T) & 1;
#ifdef BUGGY
    const int nbuf = (k0 / T) & 1;  // meant: the other buffer
#else
    const int nbuf = (k0 / T + 1) & 1;
#endif
    if (k0 + T < K) {
      sA[nbuf][ty][tx] = A[(size_t)row * K + k0 + T + tx];
      sB[nbuf][ty][tx] = B[(size_t)(k0 + T + ty) * N + col];  //@@
    }
#pragma unroll
    for (int kk = 0; kk < T; ++kk) acc += sA[buf][ty][kk] * sB[buf][kk][tx];  //@a
    __syncthreads();
  }
  C[(size_t)row * N + col] = acc;
}

void launch_sgemm(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t st) {
  dim3 block(T, T), grid(N / T, M / T);
  sgemm_dbuf<<<grid, block, 0, st>>>(A, B, C, M, N, K);
}

#ifdef WITH_MAIN
int main() {
  const int M = 64, N = 64, K = 128;
  float *A, *B, *C;
  cudaMalloc(&A, M * K * 4); cudaMalloc(&B, K * N * 4); cudaMalloc(&C, M * N * 4);
  cudaMemset(A, 0, M * K * 4); cudaMemset(B, 0, K * N * 4);
  launch_sgemm(A, B, C, M, N, K, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
