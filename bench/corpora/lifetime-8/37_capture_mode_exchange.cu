// A caching allocator called from inside a global-mode capture. It switches the
// thread to relaxed mode around cudaMalloc with cudaThreadExchangeStreamCaptureMode
// (what PyTorch's capture-mode guard does); with the thread in relaxed mode the
// allocation is permitted. The debug synchronization in dump_buggy is not, in any mode.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void touch(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 0.f; }

struct Block {
  float *ptr;
  size_t bytes;
};

cudaError_t capture_with_alloc(cudaStream_t s, int n, cudaGraph_t *g, Block *blk) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  st = cudaMalloc(&blk->ptr, n * sizeof(float));
  cudaThreadExchangeStreamCaptureMode(&mode);
  if (st == cudaSuccess) {
    blk->bytes = n * sizeof(float);
    touch<<<(n + 255) / 256, 256, 0, s>>>(blk->ptr, n);
  }
  cudaError_t end = cudaStreamEndCapture(s, g);
  return st != cudaSuccess ? st : end;
}

cudaError_t dump_buggy(cudaStream_t s, float *d, int n, cudaGraph_t *g) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  touch<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaStreamSynchronize(s); // EXPECT: cudagraph-capture-unsafe-call
  cudaThreadExchangeStreamCaptureMode(&mode);
  return cudaStreamEndCapture(s, g);
}
