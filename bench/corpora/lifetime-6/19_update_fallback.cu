// Graph cache with update-then-fallback, WithParams, RAII owners.
#include <cuda_runtime.h>
#include <memory>
#include <cstdio>

class CachedGraph {
 public:
  ~CachedGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Correct: try in-place update, otherwise destroy and re-instantiate.
  cudaError_t refresh(cudaGraph_t g) {
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess) return cudaSuccess;
      cudaGetLastError();
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, g, 0);
  }

  cudaError_t launch(cudaStream_t s) { return exec_ ? cudaGraphLaunch(exec_, s) : cudaErrorInvalidValue; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// Correct: local update-then-fallback loop over a series of graphs.
cudaError_t replay(cudaGraph_t* graphs, int n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  cudaGraphExec_t e = nullptr;
  cudaError_t err = cudaGraphInstantiate(&e, graphs[0], 0);
  if (err != cudaSuccess) return err;
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(e, graphs[i], &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(e);
        err = cudaGraphInstantiate(&e, graphs[i], 0);
        if (err != cudaSuccess) return err;
      }
    }
    err = cudaGraphLaunch(e, s);
    if (err != cudaSuccess) break;
  }
  cudaGraphExecDestroy(e);
  return err;
}

// Correct: WithParams; a failed instantiation returns an error and leaves no
// exec behind.
cudaError_t upload_and_run(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &p);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "instantiate failed: result=%d\n", (int)p.result_out);
    return err;
  }
  err = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return err;
}

struct ExecHolder {
  cudaGraphExec_t e = nullptr;
  explicit ExecHolder(cudaGraphExec_t x) : e(x) {}
  ~ExecHolder() { if (e) cudaGraphExecDestroy(e); }
  ExecHolder(const ExecHolder&) = delete;
  ExecHolder& operator=(const ExecHolder&) = delete;
};

// Correct: RAII holder owns the exec across the early return.
int guarded(cudaGraph_t g, cudaStream_t s, bool bail) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiateWithFlags(&e, g, 0) != cudaSuccess) return -1;
  ExecHolder hold(e);
  if (bail) return 1;
  return cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
}

// Correct: instantiate, destroy immediately (capability probe).
bool can_instantiate(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch) != cudaSuccess)
    return false;
  cudaGraphExecDestroy(e);
  return true;
}

int main() {
  cudaGraph_t g[2];
  cudaGraphCreate(&g[0], 0);
  cudaGraphCreate(&g[1], 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  {
    CachedGraph cg;
    cg.refresh(g[0]);
    cg.refresh(g[1]);
    cg.launch(s);
  }
  replay(g, 2, s);
  upload_and_run(g[0], s);
  guarded(g[0], s, false);
  can_instantiate(g[1]);
  cudaGraphDestroy(g[0]);
  cudaGraphDestroy(g[1]);
  cudaStreamDestroy(s);
  return 0;
}
