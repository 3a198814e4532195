// Decoder-step graph capture for a serving engine. capture_step_buggy returns from
// the middle of the capture when a copy fails (the stream stays capturing) and
// loses the captured graph when instantiation fails. capture_step_fixed is the
// repaired version.
#include <cuda_runtime.h>

#define RETURN_IF_ERR(x)                         \
  do {                                           \
    cudaError_t e_ = (x);                        \
    if (e_ != cudaSuccess) return e_;            \
  } while (0)

__global__ void decode_step(const int *tokens, float *logits, int batch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch) logits[i] = (float)tokens[i];
}

struct StepBuffers {
  int *d_tokens;
  float *d_logits;
  float *h_logits;
  int batch;
};

cudaError_t capture_step_buggy(const StepBuffers &b, cudaStream_t s, cudaGraphExec_t *out) {
  RETURN_IF_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)); // EXPECT: cudagraph-capture-without-destroy
  decode_step<<<(b.batch + 63) / 64, 64, 0, s>>>(b.d_tokens, b.d_logits, b.batch);
  RETURN_IF_ERR(cudaMemcpyAsync(b.h_logits, b.d_logits, b.batch * sizeof(float),
                                cudaMemcpyDeviceToHost, s));
  cudaGraph_t graph;
  RETURN_IF_ERR(cudaStreamEndCapture(s, &graph)); // EXPECT: cudagraph-capture-without-destroy
  RETURN_IF_ERR(cudaGraphInstantiate(out, graph, 0));
  cudaGraphDestroy(graph);
  return cudaSuccess;
}

cudaError_t capture_step_fixed(const StepBuffers &b, cudaStream_t s, cudaGraphExec_t *out) {
  RETURN_IF_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  decode_step<<<(b.batch + 63) / 64, 64, 0, s>>>(b.d_tokens, b.d_logits, b.batch);
  cudaError_t st = cudaMemcpyAsync(b.h_logits, b.d_logits, b.batch * sizeof(float),
                                   cudaMemcpyDeviceToHost, s);
  if (st != cudaSuccess) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s, &broken);
    if (broken) cudaGraphDestroy(broken);
    return st;
  }
  cudaGraph_t graph;
  RETURN_IF_ERR(cudaStreamEndCapture(s, &graph));
  st = cudaGraphInstantiate(out, graph, 0);
  cudaGraphDestroy(graph);
  return st;
}
