// Buffers released by helpers of this file. run_ok relies on the helper;
// run_buggy calls the helper and then frees one buffer again by hand.
#include <cuda_runtime.h>

struct Bufs {
  float *in;
  float *out;
  int *flags;
};

static cudaError_t bufs_alloc(Bufs *b, size_t n) {
  b->in = nullptr; b->out = nullptr; b->flags = nullptr;
  if (cudaMalloc(&b->in, n * sizeof(float)) != cudaSuccess) return cudaErrorMemoryAllocation;
  if (cudaMalloc(&b->out, n * sizeof(float)) != cudaSuccess) { cudaFree(b->in); return cudaErrorMemoryAllocation; }
  if (cudaMalloc(&b->flags, n * sizeof(int)) != cudaSuccess) {
    cudaFree(b->out);
    cudaFree(b->in);
    return cudaErrorMemoryAllocation;
  }
  return cudaSuccess;
}

static void bufs_free(Bufs *b) {
  cudaFree(b->flags);
  cudaFree(b->out);
  cudaFree(b->in);
}

static void drop(float *p) { if (p) cudaFree(p); }

__global__ void mark(const float *in, float *out, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[i] = in[i]; flags[i] = in[i] > 0.f; }
}

cudaError_t run_ok(int n, cudaStream_t s) {
  Bufs b;
  cudaError_t st = bufs_alloc(&b, n);
  if (st != cudaSuccess) return st;
  mark<<<(n + 255) / 256, 256, 0, s>>>(b.in, b.out, b.flags, n);
  st = cudaStreamSynchronize(s);
  bufs_free(&b);
  return st;
}

cudaError_t run_buggy(int n, cudaStream_t s) {
  Bufs b;
  cudaError_t st = bufs_alloc(&b, n);
  if (st != cudaSuccess) return st;
  mark<<<(n + 255) / 256, 256, 0, s>>>(b.in, b.out, b.flags, n);
  st = cudaStreamSynchronize(s);
  bufs_free(&b);
  cudaFree(b.out); // EXPECT: cudagraph-use-after-dealloc
  return st;
}

cudaError_t tmp_via_drop(int n, cudaStream_t s) {
  float *t = nullptr;
  cudaError_t st = cudaMalloc(&t, n * sizeof(float));
  if (st != cudaSuccess) return st;
  st = cudaMemsetAsync(t, 0, n * sizeof(float), s);
  cudaStreamSynchronize(s);
  drop(t);
  return st;
}
