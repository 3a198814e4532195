// SGLang/vLLM-style model runner configured with one stream: the runner keeps
// separate forward and sampling stream members (so a later version can split
// them), but its only constructor initialises both from the same stream.
// Per-step temporaries are stream-ordered allocations.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

// Scheduler contract: d_tokens / d_next are allocated once by the scheduler,
// live for the whole decode loop, and are swapped after every step. The
// runner owns only its per-step temporaries.
static_assert(sizeof(cudaStream_t) == sizeof(void *), "stream handles are pointers");

__global__ void embed(const int *tokens, float *hidden, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * d) hidden[i] = float(tokens[i / d] % 97) * 0.01f;
}
__global__ void lm_head(const float *hidden, float *logits, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) logits[i] = hidden[i * d];
}
__global__ void argmax_sample(const float *logits, int *next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) next[i] = logits[i] > 0.f ? 1 : 0;
}

class ModelRunner {
 public:
  ModelRunner(cudaStream_t stream, int hidden)
      : forward_stream_(stream), sampling_stream_(stream), hidden_(hidden) {}

  // Runs one decode step for `n` sequences; `d_tokens` and `d_next` are
  // device arrays owned by the scheduler.
  cudaError_t step(const int *d_tokens, int *d_next, int n) {
    float *hidden = nullptr, *logits = nullptr;
    cudaError_t st = cudaMallocAsync(&hidden, sizeof(float) * n * hidden_, forward_stream_);
    if (st != cudaSuccess) return st;
    st = cudaMallocAsync(&logits, sizeof(float) * n, forward_stream_);
    if (st != cudaSuccess) {
      cudaFreeAsync(hidden, forward_stream_);
      return st;
    }
    int total = n * hidden_;
    embed<<<(total + 255) / 256, 256, 0, forward_stream_>>>(d_tokens, hidden, n, hidden_);
    lm_head<<<(n + 255) / 256, 256, 0, forward_stream_>>>(hidden, logits, n, hidden_);
    cudaFreeAsync(hidden, forward_stream_);
    // Sampling runs on the sampling stream (the same stream in this build).
    argmax_sample<<<(n + 255) / 256, 256, 0, sampling_stream_>>>(logits, d_next, n);
    cudaFreeAsync(logits, sampling_stream_);
    return cudaGetLastError();
  }

  cudaError_t sync() { return cudaStreamSynchronize(sampling_stream_); }

 private:
  cudaStream_t forward_stream_;
  cudaStream_t sampling_stream_;
  int hidden_;
};

int main() {
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return 1;
  const int n = 32;
  int *d_tokens = nullptr, *d_next = nullptr;
  int rc = 1;
  if (cudaMalloc(&d_tokens, n * sizeof(int)) != cudaSuccess) goto out;
  if (cudaMalloc(&d_next, n * sizeof(int)) != cudaSuccess) goto out;
  cudaMemsetAsync(d_tokens, 0, n * sizeof(int), stream);
  {
    ModelRunner runner(stream, 128);
    for (int t = 0; t < 4; ++t) {
      if (runner.step(d_tokens, d_next, n) != cudaSuccess) break;
      std::swap(d_tokens, d_next);
    }
    rc = runner.sync() == cudaSuccess ? 0 : 1;
  }
out:
  cudaFree(d_next);
  cudaFree(d_tokens);
  cudaStreamDestroy(stream);
  return rc;
}
