// Tiled SGEMM, 16x16 tiles, one output per thread (unpadded; clean for loads
// of A rows and B columns), plus a variant that stores the B tile transposed.
#include <cuda_runtime.h>

#define TILE 16

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + tx, bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// B is stored transposed so that the inner product walks both tiles along a
// row; the transposed store makes a warp (two rows of 16 lanes) write column
// words 16 apart: 8 distinct words per bank.
__global__ void sgemm_tiled_bt(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float BsT[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];
    BsT[tx][ty] = B[(t * TILE + ty) * N + col]; // EXPECT: cudagraph-shared-bank-conflict
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * BsT[tx][k]; // EXPECT: cudagraph-shared-bank-conflict
    __syncthreads();
  }
  C[row * N + col] = acc;
}

void launch_sgemm(const float *A, const float *B, float *C, int M, int N, int K, cudaStream_t s) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemm_tiled<<<grid, block, 0, s>>>(A, B, C, M, N, K);
  sgemm_tiled_bt<<<grid, block, 0, s>>>(A, B, C, M, N, K);
}
