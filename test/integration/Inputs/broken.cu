#include <cuda_runtime.h>

void run(cudaGraph_t g) {
  cudaGraphExec_t exec
}
