// Captures through the helpers of helpers.cu: cudaMalloc runs during it.
#include <cuda_runtime.h>
cudaError_t begin_on(cudaStream_t s);
cudaError_t end_on(cudaStream_t s, cudaGraph_t *g);
cudaError_t record(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  if (begin_on(s) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMalloc(scratch, 1024);
  return end_on(s, g);
}
