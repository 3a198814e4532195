// Does not parse: the report must say so instead of counting it as clean.
#include <cuda_runtime.h>

void broken(cudaGraph_t g) {
  cudaGraphExec_t exec
  cudaGraphInstantiate(&exec, g, 0);
}
