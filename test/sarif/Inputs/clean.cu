// No findings: every exec is destroyed.
#include <cuda_runtime.h>

void run_once(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}
