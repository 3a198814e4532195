// Stream-ordered temporaries in a sparse kernel pipeline. The buggy version frees
// the column buffer before the last kernel that reads it is enqueued.
#include <cuda_runtime.h>

__global__ void count_cols(const int *rows, int *cols, int nnz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) cols[i] = rows[i] & 31;
}
__global__ void scatter(const int *cols, float *out, int nnz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) out[cols[i]] += 1.f;
}

cudaError_t spmv_prep_buggy(const int *rows, float *out, int nnz, cudaStream_t s) {
  int *cols = nullptr;
  cudaError_t st = cudaMallocAsync(&cols, nnz * sizeof(int), s);
  if (st != cudaSuccess) return st;
  count_cols<<<(nnz + 255) / 256, 256, 0, s>>>(rows, cols, nnz);
  cudaFreeAsync(cols, s);
  scatter<<<(nnz + 255) / 256, 256, 0, s>>>(cols, out, nnz); // EXPECT: cudagraph-use-after-dealloc
  return cudaGetLastError();
}

cudaError_t spmv_prep(const int *rows, float *out, int nnz, cudaStream_t s) {
  int *cols = nullptr;
  cudaError_t st = cudaMallocAsync(&cols, nnz * sizeof(int), s);
  if (st != cudaSuccess) return st;
  count_cols<<<(nnz + 255) / 256, 256, 0, s>>>(rows, cols, nnz);
  scatter<<<(nnz + 255) / 256, 256, 0, s>>>(cols, out, nnz);
  cudaFreeAsync(cols, s);
  return cudaGetLastError();
}

// Allocated on one stream, used and freed on another after an event wait. Correct.
cudaError_t cross_stream(const int *rows, float *out, int nnz, cudaStream_t a, cudaStream_t b) {
  int *cols = nullptr;
  cudaError_t st = cudaMallocAsync(&cols, nnz * sizeof(int), a);
  if (st != cudaSuccess) return st;
  count_cols<<<(nnz + 255) / 256, 256, 0, a>>>(rows, cols, nnz);
  cudaEvent_t ready;
  st = cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  if (st != cudaSuccess) {
    cudaFreeAsync(cols, a);
    return st;
  }
  cudaEventRecord(ready, a);
  cudaStreamWaitEvent(b, ready, 0);
  scatter<<<(nnz + 255) / 256, 256, 0, b>>>(cols, out, nnz);
  cudaFreeAsync(cols, b);
  cudaEventDestroy(ready);
  return cudaGetLastError();
}
