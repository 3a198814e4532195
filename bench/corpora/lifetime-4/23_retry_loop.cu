// while (retries--) instantiate, destroy on failed launch, retry.
#include <cuda_runtime.h>
#include <chrono>
#include <thread>

bool launch_with_retry(cudaGraph_t g, cudaStream_t s, int retries) {
  while (retries--) {
    cudaGraphExec_t exec = nullptr;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    cudaError_t e = cudaGraphLaunch(exec, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
    if (e == cudaSuccess)
      return true;
  }
  return false;
}

bool launch_with_retry_outer(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  int attempts = 3;
  bool ok = false;
  while (attempts-- > 0 && !ok) {
    if (exec) {
      cudaGraphExecDestroy(exec);
      exec = nullptr;
    }
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
      exec = nullptr;
      continue;
    }
    ok = cudaGraphLaunch(exec, s) == cudaSuccess;
  }
  if (exec) cudaGraphExecDestroy(exec);
  return ok;
}

// BUG: a failed launch loops back and re-instantiates over the live exec.
bool launch_with_retry_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return false;
    if (cudaGraphLaunch(exec, s) == cudaSuccess) {
      cudaGraphExecDestroy(exec);
      return true;
    }
  }
  return false;
}
