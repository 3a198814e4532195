// Pinned double buffers for an overlapped reader. read_chunks_buggy frees the
// spare buffer early for a single-chunk file and frees it again at the end.
// read_chunks resets the pointer (cudaFreeHost(nullptr) is a no-op).
#include <cuda_runtime.h>
#include <cstdio>

size_t read_file_chunk(FILE *f, void *dst, size_t bytes);

int read_chunks_buggy(FILE *f, void *d_dst, size_t chunk, int nchunks, cudaStream_t s) {
  void *buf[2] = {nullptr, nullptr};
  if (cudaMallocHost(&buf[0], chunk) != cudaSuccess) return -1;
  if (cudaMallocHost(&buf[1], chunk) != cudaSuccess) { cudaFreeHost(buf[0]); return -1; }
  if (nchunks == 1) cudaFreeHost(buf[1]);
  for (int c = 0; c < nchunks; ++c) {
    void *b = buf[c & 1];
    read_file_chunk(f, b, chunk);
    cudaMemcpyAsync((char *)d_dst + c * chunk, b, chunk, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
  }
  cudaFreeHost(buf[0]);
  cudaFreeHost(buf[1]); // EXPECT: cudagraph-use-after-dealloc
  return 0;
}

int read_chunks(FILE *f, void *d_dst, size_t chunk, int nchunks, cudaStream_t s) {
  void *buf[2] = {nullptr, nullptr};
  if (cudaMallocHost(&buf[0], chunk) != cudaSuccess) return -1;
  if (cudaMallocHost(&buf[1], chunk) != cudaSuccess) { cudaFreeHost(buf[0]); return -1; }
  if (nchunks == 1) { cudaFreeHost(buf[1]); buf[1] = nullptr; }
  for (int c = 0; c < nchunks; ++c) {
    void *b = buf[c & 1];
    read_file_chunk(f, b, chunk);
    cudaMemcpyAsync((char *)d_dst + c * chunk, b, chunk, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
  }
  cudaFreeHost(buf[0]);
  cudaFreeHost(buf[1]);
  return 0;
}
