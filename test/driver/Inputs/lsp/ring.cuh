// A CUDA header for test/driver/lsp.test: analysed on its own, with the
// command of its neighbour in the compile database.
#pragma once
#include <cuda_runtime.h>

inline void ring_alloc(size_t n) {
  float *d;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  cudaFreeHost(d);
}
