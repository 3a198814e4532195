// cudaGraphExecUpdate then fallback to destroy + re-instantiate.
#include <cuda_runtime.h>

class CachedGraph {
public:
  ~CachedGraph() { if (exec_) cudaGraphExecDestroy(exec_); }

  cudaError_t refresh(cudaGraph_t g) {
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess)
        return cudaSuccess;
      (void)cudaGetLastError();
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, g, 0);
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

cudaError_t step_local(cudaGraph_t g0, cudaGraph_t g1, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g0, 0);
  if (e != cudaSuccess) return e;
  cudaGraphLaunch(exec, s);
  cudaGraphExecUpdateResultInfo info{};
  if (cudaGraphExecUpdate(exec, g1, &info) != cudaSuccess) {
    cudaGraphExecDestroy(exec);
    e = cudaGraphInstantiate(&exec, g1, 0);
    if (e != cudaSuccess) return e;
  }
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

cudaError_t step_result_check(cudaGraph_t g0, cudaGraph_t g1, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g0, 0);
  if (e != cudaSuccess) return e;
  cudaGraphExecUpdateResultInfo info{};
  cudaGraphExecUpdate(exec, g1, &info);
  if (info.result != cudaGraphExecUpdateSuccess) {
    cudaGraphExecDestroy(exec);
    if ((e = cudaGraphInstantiate(&exec, g1, 0)) != cudaSuccess) return e;
  }
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

// BUG: the fallback re-instantiates over the live exec without destroying it.
cudaError_t step_leaky(cudaGraph_t g0, cudaGraph_t g1, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g0, 0);
  if (e != cudaSuccess) return e;
  cudaGraphExecUpdateResultInfo info{};
  if (cudaGraphExecUpdate(exec, g1, &info) != cudaSuccess) {
    e = cudaGraphInstantiate(&exec, g1, 0); // EXPECT: cudagraph-unpaired-instantiate
    if (e != cudaSuccess) return e;
  }
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}
