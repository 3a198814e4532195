// Decode-step CUDA graph cache keyed by padded batch size, in the style of an
// LLM serving engine's model runner.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t _e = (expr);                                                   \
    if (_e != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(_e),      \
              __FILE__, __LINE__);                                             \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

__global__ void decode_step_kernel(const int *tokens, float *logits, int batch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch)
    logits[i] = static_cast<float>(tokens[i]) * 0.5f;
}

static const int kCaptureSizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

class DecodeGraphCache {
public:
  explicit DecodeGraphCache(cudaStream_t stream) : stream_(stream) {}
  ~DecodeGraphCache() {
    for (auto &kv : execs_)
      cudaGraphExecDestroy(kv.second);
  }

  void capture(int batch, const int *tokens, float *logits) {
    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    decode_step_kernel<<<(batch + 127) / 128, 128, 0, stream_>>>(tokens, logits, batch);
    CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    execs_[batch] = exec;
  }

  void capture_all(const int *tokens, float *logits) {
    for (int bs : kCaptureSizes)
      capture(bs, tokens, logits);
  }

  bool replay(int batch) {
    auto it = execs_.find(batch);
    if (it == execs_.end())
      return false;
    CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
    return true;
  }

private:
  cudaStream_t stream_;
  std::unordered_map<int, cudaGraphExec_t> execs_;
};

// Log-and-return variant used by the lazy capture path: the warm-up failure
// returns without releasing the freshly instantiated exec.
bool capture_padded(cudaStream_t s, int batch, const int *tokens, float *logits,
                    std::unordered_map<int, cudaGraphExec_t> &out) {
  cudaGraph_t graph = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return false;
  decode_step_kernel<<<(batch + 127) / 128, 128, 0, s>>>(tokens, logits, batch);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
    return false;
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);
  if (err != cudaSuccess)
    return false;
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    fprintf(stderr, "warm-up replay failed for batch %d\n", batch);
    return false;
  }
  out[batch] = exec;
  return true;
}

// Same function, fixed.
bool capture_padded_fixed(cudaStream_t s, int batch, const int *tokens,
                          float *logits,
                          std::unordered_map<int, cudaGraphExec_t> &out) {
  cudaGraph_t graph = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return false;
  decode_step_kernel<<<(batch + 127) / 128, 128, 0, s>>>(tokens, logits, batch);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
    return false;
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (err != cudaSuccess)
    return false;
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    fprintf(stderr, "warm-up replay failed for batch %d\n", batch);
    cudaGraphExecDestroy(exec);
    return false;
  }
  out[batch] = exec;
  return true;
}
