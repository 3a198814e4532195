// Update-or-reinstantiate in a long-lived runner; validate-by-instantiate.
// CORRECT: the fallback destroys before re-instantiating; the probe destroys
// immediately after instantiating.
#include <cuda_runtime.h>
#include <cstdio>

class DecodeGraph {
public:
  ~DecodeGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  cudaError_t set_graph(cudaGraph_t g) {
    if (!exec_) return cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphExecUpdateResultInfo info{};
    cudaError_t st = cudaGraphExecUpdate(exec_, g, &info);
    if (st == cudaSuccess) return st;
    (void)cudaGetLastError();
    if (info.result == cudaGraphExecUpdateErrorTopologyChanged)
      std::fprintf(stderr, "topology changed; re-instantiating\n");
    cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
    return cudaGraphInstantiate(&exec_, g, 0);
  }

  cudaError_t launch(cudaStream_t s) const { return exec_ ? cudaGraphLaunch(exec_, s) : cudaErrorInvalidValue; }

private:
  cudaGraphExec_t exec_ = nullptr;
};

// Checks that a graph is instantiable without keeping the exec.
bool probe(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  cudaGraphExecDestroy(e);
  return true;
}

int local_update_loop(cudaGraph_t *gs, int n, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  for (int i = 0; i < n; ++i) {
    if (e == nullptr) {
      if (cudaGraphInstantiate(&e, gs[i], 0) != cudaSuccess) return -1;
    } else {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(e, gs[i], &info) != cudaSuccess) {
        cudaGraphExecDestroy(e);
        e = nullptr;
        if (cudaGraphInstantiate(&e, gs[i], 0) != cudaSuccess) return -1;
      }
    }
    cudaGraphLaunch(e, s);
  }
  if (e) cudaGraphExecDestroy(e);
  return 0;
}
