// Driver API: exec update with fallback, in a JIT-ish graph holder.
#include <cuda.h>
#include <cstdio>

class DrvGraphHolder {
public:
  ~DrvGraphHolder() {
    if (exec_)
      cuGraphExecDestroy(exec_);
  }
  // Correct.
  CUresult update(CUgraph g) {
    if (exec_) {
      CUgraphExecUpdateResultInfo info;
      if (cuGraphExecUpdate(exec_, g, &info) == CUDA_SUCCESS)
        return CUDA_SUCCESS;
      cuGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cuGraphInstantiate(&exec_, g, 0);
  }

private:
  CUgraphExec exec_ = nullptr;
};

// Buggy: local exec re-instantiated after a failed update without destroy.
CUresult run_versions(CUgraph const *versions, int nv, CUstream s) {
  CUgraphExec exec = nullptr;
  CUresult r = cuGraphInstantiate(&exec, versions[0], 0);
  if (r != CUDA_SUCCESS)
    return r;
  for (int v = 1; v < nv; ++v) {
    CUgraphExecUpdateResultInfo info;
    if (cuGraphExecUpdate(exec, versions[v], &info) != CUDA_SUCCESS) {
      r = cuGraphInstantiate(&exec, versions[v], 0); // EXPECT: cudagraph-unpaired-instantiate
      if (r != CUDA_SUCCESS)
        return r;
    }
    cuGraphLaunch(exec, s);
  }
  cuStreamSynchronize(s);
  cuGraphExecDestroy(exec);
  return CUDA_SUCCESS;
}

// Correct: same loop with the destroy in the fallback, and every error path
// after the first instantiation releasing the exec.
CUresult run_versions_ok(CUgraph const *versions, int nv, CUstream s) {
  CUgraphExec exec = nullptr;
  CUresult r = cuGraphInstantiate(&exec, versions[0], 0);
  if (r != CUDA_SUCCESS)
    return r;
  for (int v = 1; v < nv; ++v) {
    CUgraphExecUpdateResultInfo info;
    if (cuGraphExecUpdate(exec, versions[v], &info) != CUDA_SUCCESS) {
      cuGraphExecDestroy(exec);
      exec = nullptr;
      r = cuGraphInstantiate(&exec, versions[v], 0);
      if (r != CUDA_SUCCESS)
        return r;
    }
    cuGraphLaunch(exec, s);
  }
  cuStreamSynchronize(s);
  cuGraphExecDestroy(exec);
  return CUDA_SUCCESS;
}

// Buggy: driver exec created via the flags entry point, returned status only.
CUresult warm_driver(CUgraph g, CUstream s) {
  CUgraphExec exec;
  CUresult r = cuGraphInstantiateWithFlags(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (r != CUDA_SUCCESS)
    return r;
  r = cuGraphUpload(exec, s);
  return r;
}
