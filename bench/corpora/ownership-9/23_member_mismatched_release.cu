// Output staging of a detokenizer worker. The pinned mirror is allocated with
// cudaHostAlloc in init() and returned with cudaFree in the destructor; the
// cached graph exec is released through a cast to cudaGraph_t in reset().
// FlexStaging picks pinned or pageable memory by an option and releases with
// the matching call under the same member flag.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdlib>

class TokenStaging {
 public:
  TokenStaging() = default;
  ~TokenStaging() {
    reset();
    cudaFree(host_ids_); // EXPECT: cudagraph-mismatched-dealloc
    cudaFree(dev_ids_);
  }
  TokenStaging(const TokenStaging &) = delete;
  TokenStaging &operator=(const TokenStaging &) = delete;

  cudaError_t init(size_t max_tokens) {
    if (host_ids_) return cudaSuccess;
    cudaError_t st = cudaHostAlloc(&host_ids_, max_tokens * sizeof(int), cudaHostAllocPortable);
    if (st != cudaSuccess) return st;
    st = cudaMalloc(&dev_ids_, max_tokens * sizeof(int));
    cap_ = max_tokens;
    return st;
  }

  cudaError_t adopt_exec(cudaGraph_t g) {
    reset();
    return cudaGraphInstantiate(&exec_, g, 0);
  }

  void reset() {
    if (exec_) cudaGraphDestroy((cudaGraph_t)exec_); // EXPECT: cudagraph-mismatched-dealloc
    exec_ = nullptr;
  }

  cudaError_t drain(cudaStream_t s, size_t n) {
    if (exec_) cudaGraphLaunch(exec_, s);
    return cudaMemcpyAsync(host_ids_, dev_ids_, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  }

 private:
  int *host_ids_ = nullptr;
  int *dev_ids_ = nullptr;
  size_t cap_ = 0;
  cudaGraphExec_t exec_ = nullptr;
};

class FlexStaging {
 public:
  explicit FlexStaging(bool pinned) : pinned_(pinned) {}
  ~FlexStaging() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (pinned_)
      cudaFreeHost(host_ids_);
    else
      std::free(host_ids_);
    cudaFree(dev_ids_);
  }
  FlexStaging(const FlexStaging &) = delete;
  FlexStaging &operator=(const FlexStaging &) = delete;

  cudaError_t init(size_t max_tokens) {
    if (host_ids_) return cudaSuccess;
    if (pinned_) {
      cudaError_t st = cudaHostAlloc(&host_ids_, max_tokens * sizeof(int), cudaHostAllocDefault);
      if (st != cudaSuccess) return st;
    } else {
      host_ids_ = static_cast<int *>(std::malloc(max_tokens * sizeof(int)));
      if (!host_ids_) return cudaErrorMemoryAllocation;
    }
    return cudaMalloc(&dev_ids_, max_tokens * sizeof(int));
  }

  cudaError_t adopt_exec(cudaGraph_t g) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
    return cudaGraphInstantiate(&exec_, g, 0);
  }

  cudaError_t drain(cudaStream_t s, size_t n) {
    if (exec_) cudaGraphLaunch(exec_, s);
    return cudaMemcpyAsync(host_ids_, dev_ids_, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  }

 private:
  bool pinned_;
  int *host_ids_ = nullptr;
  int *dev_ids_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int detokenize_loop(cudaStream_t s, cudaGraph_t g, size_t max_tokens, int steps, bool pinned) {
  TokenStaging a;
  FlexStaging b(pinned);
  if (a.init(max_tokens) != cudaSuccess || b.init(max_tokens) != cudaSuccess) return 1;
  if (a.adopt_exec(g) != cudaSuccess || b.adopt_exec(g) != cudaSuccess) return 2;
  for (int i = 0; i < steps; ++i) {
    a.drain(s, max_tokens);
    b.drain(s, max_tokens);
  }
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 3;
}
