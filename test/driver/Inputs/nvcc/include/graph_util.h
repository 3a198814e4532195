// Reached only through the -I of the nvcc command.
#pragma once
#include <cuda_runtime.h>
inline cudaError_t make_exec(cudaGraphExec_t *exec, cudaGraph_t g) {
  return cudaGraphInstantiate(exec, g, 0);
}
