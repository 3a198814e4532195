// Status of the instantiate is read back through cudaGetLastError().
#include <cuda_runtime.h>
#include <cstdio>

bool run_once_lasterror(cudaGraph_t graph, cudaStream_t stream) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, graph, 0);
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "instantiate failed\n");
    return false;  // nothing was created
  }
  cudaGraphLaunch(exec, stream);
  cudaError_t st = cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  return st == cudaSuccess;
}

bool run_once_peek(cudaGraph_t graph, cudaStream_t stream) {
  cudaGraphExec_t exec{};
  (void)cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaError_t err = cudaPeekAtLastError();
  if (err != cudaSuccess)
    return false;
  (void)cudaGetLastError();
  bool ok = cudaGraphLaunch(exec, stream) == cudaSuccess;
  cudaGraphExecDestroy(exec);
  return ok;
}

// BUG: the launch-failure path returns without destroying the exec.
bool run_once_leaky(cudaGraph_t graph, cudaStream_t stream) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGetLastError() != cudaSuccess)
    return false;
  if (cudaGraphLaunch(exec, stream) != cudaSuccess)
    return false;
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  return true;
}
