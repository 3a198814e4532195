// Runtime buffers of a generation session in the style of TensorRT-LLM: device
// buffers sized for (max batch, max beam, max seq), pinned host mirrors of the
// sequence lengths, and reshape() when the session's limits change. reshape()
// frees and reallocates each buffer, except the cache-indirection buffer; the
// destructor hands the pinned host lengths to cudaFree.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>

#define TLLM_CUDA_CHECK(x)                                                          \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return e_;                                                                    \
    }                                                                               \
  } while (0)

struct SessionConfig {
  int max_batch = 8;
  int max_beam = 1;
  int max_seq = 2048;
  int vocab = 32000;
  bool use_gpt_attention_plugin = true;
  bool gather_context_logits = false;
  bool use_pinned_lengths = true;
};

class RuntimeBuffers {
 public:
  explicit RuntimeBuffers(const SessionConfig &cfg) : cfg_(cfg) {
    size_t bb = (size_t)cfg_.max_batch * cfg_.max_beam;
    status_ = cudaMalloc(&logits_, bb * cfg_.vocab * sizeof(float));
    if (status_ == cudaSuccess) status_ = cudaMalloc(&seq_lengths_, bb * sizeof(int));
    if (status_ == cudaSuccess) status_ = cudaMalloc(&cache_indirection_, bb * cfg_.max_seq * sizeof(int));
    if (status_ == cudaSuccess && cfg_.gather_context_logits)
      status_ = cudaMalloc(&context_logits_, bb * cfg_.max_seq * cfg_.vocab * sizeof(float));
    if (status_ == cudaSuccess) status_ = cudaMallocHost(&host_lengths_, bb * sizeof(int));
    if (status_ == cudaSuccess) status_ = cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking);
  }

  cudaError_t status() const { return status_; }

  ~RuntimeBuffers() {
    cudaFree(logits_);
    cudaFree(seq_lengths_);
    cudaFree(cache_indirection_);
    cudaFree(context_logits_);
    cudaFree(host_lengths_); // EXPECT: cudagraph-mismatched-dealloc
    if (copy_stream_) cudaStreamDestroy(copy_stream_);
  }

  RuntimeBuffers(const RuntimeBuffers &) = delete;
  RuntimeBuffers &operator=(const RuntimeBuffers &) = delete;

  cudaError_t reshape(const SessionConfig &next) {
    bool grow_logits = next.max_batch * next.max_beam * next.vocab > cfg_.max_batch * cfg_.max_beam * cfg_.vocab;
    bool grow_seq = next.max_seq > cfg_.max_seq || next.max_batch > cfg_.max_batch || next.max_beam > cfg_.max_beam;
    size_t bb = (size_t)next.max_batch * next.max_beam;
    if (grow_logits) {
      cudaFree(logits_);
      logits_ = nullptr;
      TLLM_CUDA_CHECK(cudaMalloc(&logits_, bb * next.vocab * sizeof(float)));
    }
    if (grow_seq) {
      cudaFree(seq_lengths_);
      seq_lengths_ = nullptr;
      TLLM_CUDA_CHECK(cudaMalloc(&seq_lengths_, bb * sizeof(int)));
      TLLM_CUDA_CHECK(cudaMalloc(&cache_indirection_, bb * next.max_seq * sizeof(int))); // EXPECT: cudagraph-handle-leak
      cudaFreeHost(host_lengths_);
      host_lengths_ = nullptr;
      TLLM_CUDA_CHECK(cudaMallocHost(&host_lengths_, bb * sizeof(int)));
    }
    if (next.gather_context_logits && (grow_seq || grow_logits || !context_logits_)) {
      cudaFree(context_logits_);
      context_logits_ = nullptr;
      TLLM_CUDA_CHECK(cudaMalloc(&context_logits_, bb * next.max_seq * next.vocab * sizeof(float)));
    } else if (!next.gather_context_logits && context_logits_) {
      cudaFree(context_logits_);
      context_logits_ = nullptr;
    }
    cfg_ = next;
    return cudaSuccess;
  }

  cudaError_t fetch_lengths(int batch) {
    size_t n = (size_t)batch * cfg_.max_beam * sizeof(int);
    TLLM_CUDA_CHECK(cudaMemcpyAsync(host_lengths_, seq_lengths_, n, cudaMemcpyDeviceToHost, copy_stream_));
    return cudaStreamSynchronize(copy_stream_);
  }

  const int *host_lengths() const { return host_lengths_; }

 private:
  SessionConfig cfg_;
  cudaError_t status_ = cudaSuccess;
  float *logits_ = nullptr;
  int *seq_lengths_ = nullptr;
  int *cache_indirection_ = nullptr;
  float *context_logits_ = nullptr;
  int *host_lengths_ = nullptr;
  cudaStream_t copy_stream_ = nullptr;
};

int generate(const SessionConfig &cfg, const SessionConfig *reshapes, int nreshape, int steps) {
  RuntimeBuffers bufs(cfg);
  if (bufs.status() != cudaSuccess) return 1;
  for (int r = 0; r < nreshape; ++r) {
    if (bufs.reshape(reshapes[r]) != cudaSuccess) return 2;
    for (int s = 0; s < steps; ++s) {
      if (bufs.fetch_lengths(reshapes[r].max_batch) != cudaSuccess) return 3;
      if (bufs.host_lengths()[0] >= reshapes[r].max_seq) break;
    }
  }
  return 0;
}
