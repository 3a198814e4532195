// Serving engine initialisation. init_buggy returns on a failed pinned allocation
// without releasing the device buffer and the stream it created before; init_ok
// unwinds.
#include <cuda_runtime.h>
#include <cstdio>

#define LOG_AND_RETURN(st, what)                                         \
  do {                                                                   \
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(st)); \
    return st;                                                           \
  } while (0)

struct Engine {
  float *d_kv = nullptr;
  float *h_logits = nullptr;
  cudaStream_t stream = nullptr;
};

cudaError_t init_buggy(Engine *e, size_t kv_bytes, size_t logit_bytes) {
  float *kv = nullptr;
  cudaError_t st = cudaMalloc(&kv, kv_bytes); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) LOG_AND_RETURN(st, "cudaMalloc");
  cudaStream_t s;
  st = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) LOG_AND_RETURN(st, "cudaStreamCreate");
  float *logits = nullptr;
  st = cudaMallocHost(&logits, logit_bytes);
  if (st != cudaSuccess) LOG_AND_RETURN(st, "cudaMallocHost");
  e->d_kv = kv;
  e->h_logits = logits;
  e->stream = s;
  return cudaSuccess;
}

cudaError_t init_ok(Engine *e, size_t kv_bytes, size_t logit_bytes) {
  float *kv = nullptr;
  cudaError_t st = cudaMalloc(&kv, kv_bytes);
  if (st != cudaSuccess) LOG_AND_RETURN(st, "cudaMalloc");
  cudaStream_t s;
  st = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (st != cudaSuccess) {
    cudaFree(kv);
    LOG_AND_RETURN(st, "cudaStreamCreate");
  }
  float *logits = nullptr;
  st = cudaMallocHost(&logits, logit_bytes);
  if (st != cudaSuccess) {
    cudaStreamDestroy(s);
    cudaFree(kv);
    LOG_AND_RETURN(st, "cudaMallocHost");
  }
  e->d_kv = kv;
  e->h_logits = logits;
  e->stream = s;
  return cudaSuccess;
}

void engine_shutdown(Engine *e) {
  cudaStreamSynchronize(e->stream);
  cudaStreamDestroy(e->stream);
  cudaFreeHost(e->h_logits);
  cudaFree(e->d_kv);
  *e = Engine{};
}
