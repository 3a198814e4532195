// cudaGraphInstantiateWithFlags / cudaGraphInstantiateWithParams.
#include <cuda_runtime.h>
#include <cstdio>

class MemNodeGraph {
public:
  ~MemNodeGraph() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
  // Correct: graph with allocation nodes, auto-free on relaunch, into member.
  bool init(cudaGraph_t g) {
    return cudaGraphInstantiateWithFlags(&exec_, g, cudaGraphInstantiateFlagAutoFreeOnLaunch) == cudaSuccess;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

// Correct: result_out is cudaGraphInstantiateSuccess whenever the call
// succeeds, so the second test never fires on a successful instantiation.
bool instantiate_uploaded(cudaGraph_t g, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiateWithParams(&e, g, &p);
  if (st != cudaSuccess) {
    fprintf(stderr, "instantiate: %s (result %d)\n", cudaGetErrorString(st), (int)p.result_out);
    return false;
  }
  *out = e;
  return true;
}

// Buggy: device-launchable exec; early exit when the upload stream is busy.
bool prepare_device_launch(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagDeviceLaunch) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  if (cudaStreamQuery(s) == cudaErrorNotReady)
    return false;
  cudaGraphUpload(e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  return true;
}

// Buggy: WithParams exec used for a one-off launch and dropped.
void one_off(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUseNodePriority;
  cudaGraphExec_t e;
  if (cudaGraphInstantiateWithParams(&e, g, &p) == cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphLaunch(e, s);
}

// Correct: priority flag with a fallback to plain instantiation when the flag
// is rejected; nothing is live when the fallback runs.
cudaError_t instantiate_prio(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagUseNodePriority);
  if (st != cudaSuccess) {
    (void)cudaGetLastError();
    st = cudaGraphInstantiate(&e, g, 0);
  }
  if (st != cudaSuccess)
    return st;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st;
}
