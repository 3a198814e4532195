// Host staging buffers for a data loader. One path releases pinned memory with
// cudaFree (fails, buffer stays pinned); the flag-selected allocator below is correct.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(expr)                                   \
  do {                                                     \
    cudaError_t err__ = (expr);                            \
    if (err__ != cudaSuccess) return err__;                \
  } while (0)

cudaError_t upload_batch(const void *src, size_t bytes, void *d_dst, cudaStream_t s) {
  void *staging = nullptr;
  CUDA_CHECK(cudaMallocHost(&staging, bytes));
  std::memcpy(staging, src, bytes);
  cudaError_t st = cudaMemcpyAsync(d_dst, staging, bytes, cudaMemcpyHostToDevice, s);
  if (st == cudaSuccess) st = cudaStreamSynchronize(s);
  cudaFree(staging); // EXPECT: cudagraph-mismatched-dealloc
  return st;
}

cudaError_t upload_batch_portable(const void *src, size_t bytes, void *d_dst,
                                  cudaStream_t s, bool pinned) {
  void *staging = nullptr;
  if (pinned) {
    CUDA_CHECK(cudaHostAlloc(&staging, bytes, cudaHostAllocPortable));
  } else {
    staging = std::malloc(bytes);
    if (!staging) return cudaErrorMemoryAllocation;
  }
  std::memcpy(staging, src, bytes);
  cudaError_t st = cudaMemcpyAsync(d_dst, staging, bytes, cudaMemcpyHostToDevice, s);
  if (st == cudaSuccess) st = cudaStreamSynchronize(s);
  if (pinned)
    cudaFreeHost(staging);
  else
    std::free(staging);
  return st;
}

cudaError_t download_result(void *h_dst, const void *d_src, size_t bytes) {
  void *bounce = nullptr;
  CUDA_CHECK(cudaHostAlloc(&bounce, bytes, cudaHostAllocDefault));
  cudaError_t st = cudaMemcpy(bounce, d_src, bytes, cudaMemcpyDeviceToHost);
  if (st == cudaSuccess) std::memcpy(h_dst, bounce, bytes);
  free(bounce); // EXPECT: cudagraph-mismatched-dealloc
  return st;
}
