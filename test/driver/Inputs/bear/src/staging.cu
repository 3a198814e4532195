// Pinned staging buffers; the second one is never freed.
#include "stream_pool.h"

void stage(const float *host, float *dev, size_t n) {
  cudaStream_t s = make_side_stream(false);
  float *pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    pinned[i] = host[i];
  cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFreeHost(pinned);
  float *scratch = nullptr;
  cudaMallocHost(&scratch, n * sizeof(float));
  cudaStreamDestroy(s);
}
