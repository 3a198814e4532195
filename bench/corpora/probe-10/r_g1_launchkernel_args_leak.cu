// PLANTED: cudagraph-handle-leak line 40
// Sampling front end of a serving engine: top-k probabilities are computed into a
// temporary device buffer with a kernel launched through cudaLaunchKernel (the op
// table stores kernels as void pointers), and copied back to pinned host memory.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>

#define CUDA_RETURN(expr)                                                     \
  do {                                                                        \
    cudaError_t rc_ = (expr);                                                 \
    if (rc_ != cudaSuccess) return rc_;                                       \
  } while (0)

__global__ void softmax_rows(const float* logits, float* probs, int rows, int cols, float temp) {
  int r = blockIdx.x;
  if (r >= rows) return;
  const float* in = logits + (size_t)r * cols;
  float* out = probs + (size_t)r * cols;
  float mx = -FLT_MAX;
  for (int c = 0; c < cols; ++c) mx = fmaxf(mx, in[c] / temp);
  float sum = 0.f;
  for (int c = 0; c < cols; ++c) sum += __expf(in[c] / temp - mx);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = __expf(in[c] / temp - mx) / sum;
}

struct SamplingParams {
  float temperature = 1.0f;
  int vocab = 32000;
};

using KernelPtr = const void*;
static const KernelPtr kSoftmaxKernel = reinterpret_cast<const void*>(&softmax_rows);

// Writes the probabilities of the first `keep` tokens of each row into host_out.
cudaError_t compute_probs(const float* d_logits, int rows, const SamplingParams& p, int keep,
                          float* host_out /* pinned */, cudaStream_t stream) {
  if (keep <= 0 || keep > p.vocab) return cudaErrorInvalidValue;
  float* d_probs = nullptr;
  CUDA_RETURN(cudaMalloc(&d_probs, sizeof(float) * rows * p.vocab));
  int cols = p.vocab;
  float temp = p.temperature > 0.f ? p.temperature : 1.0f;
  void* args[] = {&d_logits, &d_probs, &rows, &cols, &temp};
  cudaError_t st = cudaLaunchKernel(kSoftmaxKernel, dim3(rows), dim3(256), args, 0, stream);
  if (st == cudaSuccess)
    st = cudaMemcpy2DAsync(host_out, sizeof(float) * keep, d_probs, sizeof(float) * cols,
                           sizeof(float) * keep, rows, cudaMemcpyDeviceToHost, stream);
  if (st == cudaSuccess) st = cudaStreamSynchronize(stream);
#ifndef BUGGY
  cudaFree(d_probs);
#endif
  return st;
}

// Greedy pick over the kept prefix of each row (host side, small `keep`).
cudaError_t sample_greedy(const float* d_logits, int rows, const SamplingParams& p, int keep,
                          float* pinned_scratch, int* tokens_out, cudaStream_t stream) {
  cudaError_t st = compute_probs(d_logits, rows, p, keep, pinned_scratch, stream);
  if (st != cudaSuccess) return st;
  for (int r = 0; r < rows; ++r) {
    int best = 0;
    for (int c = 1; c < keep; ++c)
      if (pinned_scratch[r * keep + c] > pinned_scratch[r * keep + best]) best = c;
    tokens_out[r] = best;
  }
  return cudaSuccess;
}
