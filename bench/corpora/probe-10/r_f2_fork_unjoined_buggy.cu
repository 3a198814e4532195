#define BUGGY
// PLANTED: cudagraph-capture-structure line 55
// Captures one speculative-decoding step: the draft model runs on the main stream while
// the target model's KV prefetch runs on an auxiliary stream forked into the capture.
#include <cuda_runtime.h>
#include <cstdio>

#define RET(x)                                                                   \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                   \
      return e_;                                                                 \
    }                                                                            \
  } while (0)

__global__ void draft_forward(const int* tokens, float* logits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) logits[i] = tokens[i % 32] * 0.1f;
}
__global__ void prefetch_kv(const float* src, float* dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

struct SpecStepGraph {
  cudaStream_t main = nullptr;
  cudaStream_t aux = nullptr;
  cudaEvent_t fork = nullptr;
  cudaEvent_t join = nullptr;
  cudaGraphExec_t exec = nullptr;
};

cudaError_t spec_graph_init(SpecStepGraph* g) {
  RET(cudaStreamCreateWithFlags(&g->main, cudaStreamNonBlocking));
  RET(cudaStreamCreateWithFlags(&g->aux, cudaStreamNonBlocking));
  RET(cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming));
  RET(cudaEventCreateWithFlags(&g->join, cudaEventDisableTiming));
  return cudaSuccess;
}

cudaError_t spec_graph_capture(SpecStepGraph* g, const int* tokens, float* logits, int n,
                               const float* kv_mirror, float* kv_dev, int kv_n) {
  cudaGraph_t graph = nullptr;
  RET(cudaStreamBeginCapture(g->main, cudaStreamCaptureModeGlobal));
  cudaError_t st = cudaEventRecord(g->fork, g->main);
  if (st == cudaSuccess) st = cudaStreamWaitEvent(g->aux, g->fork, 0);
  if (st == cudaSuccess) {
    prefetch_kv<<<(kv_n + 255) / 256, 256, 0, g->aux>>>(kv_mirror, kv_dev, kv_n);
    draft_forward<<<(n + 255) / 256, 256, 0, g->main>>>(tokens, logits, n);
#ifndef BUGGY
    st = cudaEventRecord(g->join, g->aux);
    if (st == cudaSuccess) st = cudaStreamWaitEvent(g->main, g->join, 0);
#endif
  }
  cudaError_t end = cudaStreamEndCapture(g->main, &graph);  // EXPECT: cudagraph-capture-structure
  if (st == cudaSuccess) st = end;
  if (st != cudaSuccess) {
    if (graph) cudaGraphDestroy(graph);
    return st;
  }
  st = cudaGraphInstantiate(&g->exec, graph, 0);
  cudaGraphDestroy(graph);
  return st;
}

void spec_graph_destroy(SpecStepGraph* g) {
  if (g->exec) cudaGraphExecDestroy(g->exec);
  cudaEventDestroy(g->join);
  cudaEventDestroy(g->fork);
  cudaStreamDestroy(g->aux);
  cudaStreamDestroy(g->main);
}
