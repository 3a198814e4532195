#include <cuda_runtime.h>

void host_leak(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
}
