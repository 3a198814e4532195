// Lazily initialised members of a tokenizer/sampler runtime. init() is guarded
// by a bool set after the acquisitions; ensure_workspace() frees before
// growing; ensure_host() returns when the pinned buffer is big enough but
// otherwise allocates over the smaller one without freeing it.
#include <cuda_runtime.h>
#include <cstddef>

class SamplerRuntime {
 public:
  SamplerRuntime() = default;
  ~SamplerRuntime() {
    if (initialized_) {
      cudaEventDestroy(ready_);
      cudaStreamDestroy(stream_);
    }
    cudaFree(ws_);
    cudaFreeHost(host_);
  }
  SamplerRuntime(const SamplerRuntime &) = delete;
  SamplerRuntime &operator=(const SamplerRuntime &) = delete;

  cudaError_t init() {
    if (initialized_) return cudaSuccess;
    cudaError_t st = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (st != cudaSuccess) return st;
    st = cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming);
    if (st != cudaSuccess) {
      cudaStreamDestroy(stream_);
      stream_ = nullptr;
      return st;
    }
    initialized_ = true;
    return cudaSuccess;
  }

  cudaError_t ensure_workspace(size_t n) {
    if (ws_ && ws_cap_ >= n) return cudaSuccess;
    cudaFree(ws_);
    ws_ = nullptr;
    ws_cap_ = 0;
    cudaError_t st = cudaMalloc(&ws_, n);
    if (st == cudaSuccess) ws_cap_ = n;
    return st;
  }

  cudaError_t ensure_host(size_t n) {
    if (host_ && host_cap_ >= n) return cudaSuccess;
    cudaError_t st = cudaMallocHost(&host_, n); // EXPECT: cudagraph-handle-leak
    if (st == cudaSuccess) host_cap_ = n;
    return st;
  }

  cudaError_t sample(size_t vocab) {
    cudaError_t st = init();
    if (st != cudaSuccess) return st;
    if ((st = ensure_workspace(vocab * sizeof(float))) != cudaSuccess) return st;
    if ((st = ensure_host(vocab * sizeof(int))) != cudaSuccess) return st;
    cudaMemcpyAsync(host_, ws_, vocab * sizeof(int), cudaMemcpyDeviceToHost, stream_);
    return cudaEventRecord(ready_, stream_);
  }

 private:
  bool initialized_ = false;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t ready_ = nullptr;
  void *ws_ = nullptr;
  size_t ws_cap_ = 0;
  void *host_ = nullptr;
  size_t host_cap_ = 0;
};

int sample_all(const size_t *vocab_sizes, int n) {
  SamplerRuntime rt;
  for (int i = 0; i < n; ++i)
    if (rt.sample(vocab_sizes[i]) != cudaSuccess) return 1;
  return 0;
}
