// `ok = ok && (call() == cudaSuccess)` chains.
#include <cuda_runtime.h>

bool launch_twice(cudaGraph_t g, cudaStream_t s) {
  bool ok = true;
  cudaGraphExec_t exec = nullptr;
  ok = ok && (cudaGraphInstantiate(&exec, g, 0) == cudaSuccess);
  ok = ok && (cudaGraphLaunch(exec, s) == cudaSuccess);
  ok = ok && (cudaGraphLaunch(exec, s) == cudaSuccess);
  ok = ok && (cudaStreamSynchronize(s) == cudaSuccess);
  if (exec)
    cudaGraphExecDestroy(exec);
  return ok;
}

bool launch_and(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  bool ok = cudaGraphInstantiate(&exec, g, 0) == cudaSuccess;
  ok &= ok && cudaGraphLaunch(exec, s) == cudaSuccess;
  if (ok || exec != nullptr)
    cudaGraphExecDestroy(exec);
  return ok;
}

// BUG: destroy only when everything succeeded.
bool launch_leaky(cudaGraph_t g, cudaStream_t s) {
  bool ok = true;
  cudaGraphExec_t exec = nullptr;
  ok = ok && (cudaGraphInstantiate(&exec, g, 0) == cudaSuccess); // EXPECT: cudagraph-unpaired-instantiate
  ok = ok && (cudaGraphLaunch(exec, s) == cudaSuccess);
  if (ok)
    cudaGraphExecDestroy(exec);
  return ok;
}
