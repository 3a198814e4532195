// PLANTED: cudagraph-handle-leak line 56
/* C-style GEMM engine context: a stream, a handle-like descriptor table and a split-K
 * workspace that grows to the largest problem seen so far. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  cudaStream_t stream;
  void* workspace;
  size_t workspace_bytes;
  int* d_tile_counters;
  int max_tiles;
} GemmEngine;

#define ENGINE_CHECK(call)                                                     \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "gemm engine: %s (%s)\n", #call, cudaGetErrorString(e_)); \
      return (int)e_;                                                          \
    }                                                                          \
  } while (0)

__global__ void splitk_reduce(const float* partial, float* c, int mn, int splits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= mn) return;
  float acc = 0.f;
  for (int s = 0; s < splits; ++s) acc += partial[(size_t)s * mn + i];
  c[i] = acc;
}

int gemm_engine_init(GemmEngine* e, int max_tiles) {
  e->workspace = NULL;
  e->workspace_bytes = 0;
  e->max_tiles = max_tiles;
  ENGINE_CHECK(cudaStreamCreateWithFlags(&e->stream, cudaStreamNonBlocking));
  if (cudaMalloc((void**)&e->d_tile_counters, sizeof(int) * max_tiles) != cudaSuccess) {
    cudaStreamDestroy(e->stream);
    return -1;
  }
  return 0;
}

/* Make sure the split-K workspace holds at least `bytes`. */
int gemm_engine_reserve(GemmEngine* e, size_t bytes) {
  if (bytes <= e->workspace_bytes) return 0;
#ifndef BUGGY
  if (e->workspace) {
    ENGINE_CHECK(cudaStreamSynchronize(e->stream));
    ENGINE_CHECK(cudaFree(e->workspace));
    e->workspace = NULL;
    e->workspace_bytes = 0;
  }
#endif
  ENGINE_CHECK(cudaMalloc(&e->workspace, bytes));
  e->workspace_bytes = bytes;
  return 0;
}

void gemm_engine_destroy(GemmEngine* e) {
  cudaStreamSynchronize(e->stream);
  cudaFree(e->workspace);
  cudaFree(e->d_tile_counters);
  cudaStreamDestroy(e->stream);
}

int run_splitk_batches(GemmEngine* e, const int* m, const int* n, int batches, int splits,
                       float* c) {
  for (int b = 0; b < batches; ++b) {
    size_t mn = (size_t)m[b] * n[b];
    int rc = gemm_engine_reserve(e, mn * splits * sizeof(float));
    if (rc != 0) return rc;
    splitk_reduce<<<(unsigned)((mn + 255) / 256), 256, 0, e->stream>>>(
        (const float*)e->workspace, c, (int)mn, splits);
    ENGINE_CHECK(cudaGetLastError());
  }
  ENGINE_CHECK(cudaStreamSynchronize(e->stream));
  return 0;
}
