// Early returns after instantiation in a request path.
#include <cuda_runtime.h>
#include <cstdio>
#include <optional>

struct Request {
  int batch;
  int seq_len;
  const float *input;
};

class PrefillRunner {
public:
  PrefillRunner(int max_batch, cudaStream_t s) : max_batch_(max_batch), stream_(s) {}

  // Buggy: validation happens after the instantiation.
  bool run(cudaGraph_t g, const Request &r) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return false;
    if (r.batch > max_batch_ || r.input == nullptr)
      return false;
    bool ok = cudaGraphLaunch(exec, stream_) == cudaSuccess;
    cudaGraphExecDestroy(exec);
    return ok;
  }

  // Correct: validation first.
  bool run_ok(cudaGraph_t g, const Request &r) {
    if (r.batch > max_batch_ || r.input == nullptr)
      return false;
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return false;
    bool ok = cudaGraphLaunch(exec, stream_) == cudaSuccess;
    cudaGraphExecDestroy(exec);
    return ok;
  }

  // Correct: optional return hands ownership to the caller.
  std::optional<cudaGraphExec_t> try_build(cudaGraph_t g) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return std::nullopt;
    return exec;
  }

  // Buggy: returns nullopt for long sequences after instantiating.
  std::optional<cudaGraphExec_t> try_build_for(cudaGraph_t g, const Request &r) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return std::nullopt;
    if (r.seq_len > 8192)
      return std::nullopt;
    return exec;
  }

private:
  int max_batch_;
  cudaStream_t stream_;
};

// Buggy: the instantiation status is never checked and a later error returns.
int run_raw(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    return -1;
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  return 0;
}
