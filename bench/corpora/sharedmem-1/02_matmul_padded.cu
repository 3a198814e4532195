// 32x32 tiles with a (32,8) block: each thread loads four rows. Float tiles
// are padded; a double-precision variant keeps an unpadded B tile that it
// reads by column.
#include <cuda_runtime.h>

constexpr int TS = 32;
constexpr int ROWS = 8;

__global__ void sgemm32(const float *__restrict__ A, const float *__restrict__ B,
                        float *__restrict__ C, int N) {
  __shared__ float As[TS][TS + 1];
  __shared__ float Bs[TS][TS + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
  float acc[TS / ROWS] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < N; t += TS) {
    for (int j = 0; j < TS; j += ROWS) {
      As[ty + j][tx] = A[(row0 + ty + j) * N + t + tx];
      Bs[ty + j][tx] = B[(t + ty + j) * N + col0 + tx];
    }
    __syncthreads();
    for (int k = 0; k < TS; ++k) {
      float b = Bs[k][tx];
      for (int j = 0; j < TS / ROWS; ++j)
        acc[j] += As[ty + j * ROWS][k] * b;
    }
    __syncthreads();
  }
  for (int j = 0; j < TS / ROWS; ++j)
    C[(row0 + ty + j * ROWS) * N + col0 + tx] = acc[j];
}

// C = A * B^T in double: the B tile is read as Bd[tx][k], a column walk of a
// 32-double row: in each 16-lane phase all lanes hit the same two banks.
__global__ void dgemm_nt(const double *A, const double *B, double *C, int N) {
  __shared__ double Ad[TS][TS + 1];
  __shared__ double Bd[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
  double acc[TS / ROWS] = {0, 0, 0, 0};
  for (int t = 0; t < N; t += TS) {
    for (int j = 0; j < TS; j += ROWS) {
      Ad[ty + j][tx] = A[(row0 + ty + j) * N + t + tx];
      Bd[ty + j][tx] = B[(col0 + ty + j) * N + t + tx];
    }
    __syncthreads();
    for (int k = 0; k < TS; ++k) {
      double b = Bd[tx][k]; // EXPECT: cudagraph-shared-bank-conflict
      for (int j = 0; j < TS / ROWS; ++j)
        acc[j] += Ad[ty + j * ROWS][k] * b;
    }
    __syncthreads();
  }
  for (int j = 0; j < TS / ROWS; ++j)
    C[(row0 + ty + j * ROWS) * N + col0 + tx] = acc[j];
}

void gemm(const float *A, const float *B, float *C, const double *dA, const double *dB,
          double *dC, int N, cudaStream_t stream) {
  dim3 threads(TS, ROWS);
  dim3 blocks(N / TS, N / TS);
  sgemm32<<<blocks, threads, 0, stream>>>(A, B, C, N);
  dgemm_nt<<<blocks, threads, 0, stream>>>(dA, dB, dC, N);
}
