// PLANTED: cudagraph-stream-order line 63
// Prefill of one layer with the shared-expert MLP overlapped on a side stream. The
// router workspace is allocated stream-ordered on the main stream, read by both
// streams, and released at the end of the layer.
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_OK(x)                                                         \
  do {                                                                     \
    cudaError_t e_ = (x);                                                  \
    if (e_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return e_;                                                           \
    }                                                                      \
  } while (0)

struct MoeLayerCtx {
  cudaStream_t main;
  cudaStream_t side;
  cudaEvent_t fork;
  cudaEvent_t join;
  int tokens;
  int hidden;
  int experts;
};

__global__ void router_logits(const float* h, float* logits, int tokens, int experts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tokens * experts) logits[i] = h[i % tokens];
}
__global__ void routed_experts(const float* logits, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += logits[i % 64];
}
__global__ void shared_expert(const float* h, const float* logits, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += h[i] * logits[0];
}

cudaError_t moe_layer_forward(MoeLayerCtx* c, const float* hidden, float* out) {
  const int n = c->tokens * c->hidden;
  const int nl = c->tokens * c->experts;
  float* logits = nullptr;
  CUDA_OK(cudaMallocAsync(&logits, sizeof(float) * nl, c->main));
  router_logits<<<(nl + 255) / 256, 256, 0, c->main>>>(hidden, logits, c->tokens, c->experts);

  // fork: the shared expert on the side stream needs the router output too
  cudaError_t st = cudaEventRecord(c->fork, c->main);
  if (st == cudaSuccess) st = cudaStreamWaitEvent(c->side, c->fork, 0);
  if (st == cudaSuccess)
    shared_expert<<<(n + 255) / 256, 256, 0, c->side>>>(hidden, logits, out, n);

  routed_experts<<<(n + 255) / 256, 256, 0, c->main>>>(logits, out, n);
  if (st == cudaSuccess) st = cudaGetLastError();

#ifndef BUGGY
  // join before the workspace goes back to the pool
  cudaError_t jst = cudaEventRecord(c->join, c->side);
  if (jst == cudaSuccess) jst = cudaStreamWaitEvent(c->main, c->join, 0);
  if (jst != cudaSuccess) cudaStreamSynchronize(c->side);
  if (st == cudaSuccess) st = jst;
#endif
  cudaError_t fst = cudaFreeAsync(logits, c->main);
#ifdef BUGGY
  // join so that the next layer sees the shared expert's output
  cudaError_t jst = cudaEventRecord(c->join, c->side);
  if (jst == cudaSuccess) jst = cudaStreamWaitEvent(c->main, c->join, 0);
  if (st == cudaSuccess) st = jst;
#endif
  return st != cudaSuccess ? st : fst;
}
