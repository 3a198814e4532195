// Host-to-device bandwidth sweep over transfer sizes. sweep_buggy allocates a new
// mapped pinned buffer for every size into the same pointer and frees only the
// last one. sweep_ok frees each before the next.
#include <cuda_runtime.h>
#include <cstdio>

void sweep_buggy(void *d_dst, size_t max_bytes, cudaStream_t s) {
  void *h = nullptr;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (size_t bytes = 1 << 10; bytes <= max_bytes; bytes <<= 1) {
    cudaHostAlloc(&h, bytes, cudaHostAllocMapped); // EXPECT: cudagraph-handle-leak
    cudaEventRecord(a, s);
    cudaMemcpyAsync(d_dst, h, bytes, cudaMemcpyHostToDevice, s);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    std::printf("%zu bytes: %.3f GB/s\n", bytes, bytes / (ms * 1e6));
  }
  cudaFreeHost(h);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}

void sweep_ok(void *d_dst, size_t max_bytes, cudaStream_t s) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (size_t bytes = 1 << 10; bytes <= max_bytes; bytes <<= 1) {
    void *h = nullptr;
    if (cudaHostAlloc(&h, bytes, cudaHostAllocMapped) != cudaSuccess) break;
    cudaEventRecord(a, s);
    cudaMemcpyAsync(d_dst, h, bytes, cudaMemcpyHostToDevice, s);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    std::printf("%zu bytes: %.3f GB/s\n", bytes, bytes / (ms * 1e6));
    cudaFreeHost(h);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}
