#define BUGGY
// PLANTED: cudagraph-capture-unsafe-call line 56
// Attention op with a lazily grown split-KV workspace. The graph runner captures the
// op for every batch size bucket.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>
#include <vector>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));           \
      return e_;                                                                \
    }                                                                           \
  } while (0)

struct Workspace {
  void* ptr = nullptr;
  size_t bytes = 0;
};

static cudaError_t ensure_workspace(Workspace* ws, size_t bytes) {
  if (bytes <= ws->bytes) return cudaSuccess;
  if (ws->ptr) {
    cudaError_t st = cudaFree(ws->ptr);
    if (st != cudaSuccess) return st;
    ws->ptr = nullptr;
    ws->bytes = 0;
  }
  cudaError_t st = cudaMalloc(&ws->ptr, bytes);
  if (st == cudaSuccess) ws->bytes = bytes;
  return st;
}

__global__ void split_kv_attention(const float* q, const float* kv, float* partial, int batch) {
  int b = blockIdx.x;
  if (b < batch) partial[b * blockDim.x + threadIdx.x] = q[b] * kv[threadIdx.x];
}

static size_t split_kv_bytes(int batch) { return size_t(batch) * 128 * 16 * sizeof(float); }

cudaError_t capture_attention_buckets(Workspace* ws, const float* q, const float* kv,
                                      const std::vector<int>& buckets, cudaStream_t s,
                                      std::vector<cudaGraphExec_t>* out) {
#ifndef BUGGY
  // Size the workspace for the largest bucket before any capture starts.
  size_t max_bytes = 0;
  for (int b : buckets) max_bytes = split_kv_bytes(b) > max_bytes ? split_kv_bytes(b) : max_bytes;
  CK(ensure_workspace(ws, max_bytes));
#endif
  for (int batch : buckets) {
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));  // EXPECT: cudagraph-capture-without-destroy
#ifdef BUGGY
    CK(ensure_workspace(ws, split_kv_bytes(batch)));  // EXPECT: cudagraph-capture-unsafe-call
#endif
    split_kv_attention<<<batch, 128, 0, s>>>(q, kv, static_cast<float*>(ws->ptr), batch);
    CK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t e;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    CK(st);
    out->push_back(e);
  }
  return cudaSuccess;
}
