// std::swap / std::exchange with a member exec.
#include <cuda_runtime.h>
#include <utility>

class Replayer {
public:
  ~Replayer() { if (exec_) cudaGraphExecDestroy(exec_); }

  cudaError_t rebuild_swap(cudaGraph_t g) {
    cudaGraphExec_t fresh = nullptr;
    cudaError_t e = cudaGraphInstantiate(&fresh, g, 0);
    if (e != cudaSuccess) return e;
    std::swap(exec_, fresh);
    if (fresh) cudaGraphExecDestroy(fresh);  // old one
    return cudaSuccess;
  }

  cudaError_t rebuild_exchange(cudaGraph_t g) {
    cudaGraphExec_t fresh = nullptr;
    cudaError_t e = cudaGraphInstantiate(&fresh, g, 0);
    if (e != cudaSuccess) return e;
    cudaGraphExec_t old = std::exchange(exec_, fresh);
    if (old != nullptr) cudaGraphExecDestroy(old);
    return cudaSuccess;
  }

  cudaGraphExec_t release() { return std::exchange(exec_, nullptr); }

  cudaError_t launch(cudaStream_t s) { return cudaGraphLaunch(exec_, s); }

private:
  cudaGraphExec_t exec_ = nullptr;
};

cudaError_t one_shot(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t a = nullptr, b = nullptr;
  cudaError_t e = cudaGraphInstantiate(&a, g, 0);
  if (e != cudaSuccess) return e;
  std::swap(a, b);  // b now owns it
  e = cudaGraphLaunch(b, s);
  cudaGraphExecDestroy(b);
  return e;
}

// BUG: the handle moves to `copy`, which is launched but never destroyed.
cudaError_t exchange_wrong(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t fresh = nullptr;
  cudaError_t e = cudaGraphInstantiate(&fresh, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess) return e;
  cudaGraphExec_t copy = std::exchange(fresh, nullptr);
  return cudaGraphLaunch(copy, s);
}
