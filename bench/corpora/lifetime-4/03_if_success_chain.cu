// `if (err == cudaSuccess) err = call();` chains.
#include <cuda_runtime.h>

cudaError_t replay(cudaGraph_t g, cudaStream_t s) {
  cudaError_t err = cudaSuccess;
  cudaGraphExec_t exec = nullptr;
  if (err == cudaSuccess) err = cudaGraphInstantiate(&exec, g, 0);
  if (err == cudaSuccess) err = cudaGraphUpload(exec, s);
  if (err == cudaSuccess) err = cudaGraphLaunch(exec, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  if (exec) {
    cudaError_t d = cudaGraphExecDestroy(exec);
    if (err == cudaSuccess) err = d;
  }
  return err;
}

cudaError_t replay_status_guard(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t err = cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  if (err != cudaSuccess)
    return err;
  err = cudaGraphLaunch(exec, s);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  return err;
}

// BUG: destroy is inside the success chain, so a failed launch leaks.
cudaError_t replay_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaError_t err = cudaSuccess;
  cudaGraphExec_t exec = nullptr;
  if (err == cudaSuccess) err = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (err == cudaSuccess) err = cudaGraphLaunch(exec, s);
  if (err == cudaSuccess) err = cudaGraphExecDestroy(exec);
  return err;
}
