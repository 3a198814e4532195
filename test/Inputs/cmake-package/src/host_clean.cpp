#include <cuda_runtime.h>

void host_clean(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}
