// Exception-based error handling (C++ runtime wrappers).
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <cstdio>

#define CUDA_THROW_IF(x)                                                       \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess)                                                     \
      throw std::runtime_error(std::string(#x) + ": " +                        \
                               cudaGetErrorString(e_));                        \
  } while (0)

class AttentionGraph {
public:
  AttentionGraph(cudaGraph_t g, cudaStream_t s) : stream_(s) {
    CUDA_THROW_IF(cudaGraphInstantiate(&exec_, g, 0));
  }
  ~AttentionGraph() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
  AttentionGraph(const AttentionGraph &) = delete;
  AttentionGraph &operator=(const AttentionGraph &) = delete;
  void operator()() { CUDA_THROW_IF(cudaGraphLaunch(exec_, stream_)); }

private:
  cudaGraphExec_t exec_ = nullptr;
  cudaStream_t stream_;
};

// Failure paths throw out of the function: they are sinks for this check.
void replay_n(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  CUDA_THROW_IF(cudaGraphInstantiate(&exec, g, 0));
  for (int i = 0; i < n; ++i)
    CUDA_THROW_IF(cudaGraphLaunch(exec, s));
  CUDA_THROW_IF(cudaGraphExecDestroy(exec));
}

// The exception is caught in the same function: the catch block returns
// normally and the exec is never destroyed on that path.
bool replay_n_guarded(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  try {
    for (int i = 0; i < n; ++i)
      CUDA_THROW_IF(cudaGraphLaunch(exec, s));
    CUDA_THROW_IF(cudaStreamSynchronize(s));
  } catch (const std::exception &ex) {
    fprintf(stderr, "replay failed: %s\n", ex.what());
    return false;
  }
  cudaGraphExecDestroy(exec);
  return true;
}

// Correct: destroy then rethrow.
void replay_n_rethrow(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  CUDA_THROW_IF(cudaGraphInstantiate(&exec, g, 0));
  try {
    for (int i = 0; i < n; ++i)
      CUDA_THROW_IF(cudaGraphLaunch(exec, s));
  } catch (...) {
    cudaGraphExecDestroy(exec);
    throw;
  }
  cudaGraphExecDestroy(exec);
}

// Buggy: returns on a non-exceptional validation path.
void replay_checked(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  CUDA_THROW_IF(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  if (n <= 0)
    return;
  for (int i = 0; i < n; ++i)
    CUDA_THROW_IF(cudaGraphLaunch(exec, s));
  cudaGraphExecDestroy(exec);
}
