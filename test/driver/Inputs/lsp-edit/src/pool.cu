// A copy stream created and destroyed: no finding until an edit drops the
// destroy.
#include <cuda_runtime.h>

void upload(const float *host, float *dev, size_t n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}
