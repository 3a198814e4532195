// Two leaking graph execs and a clean one; the second leak sits on a line
// with non-ASCII text before it, so byte and code-point columns differ.
#include <cuda_runtime.h>

void leak_simple(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
}

void leak_after_comment(cudaGraph_t g) {
  cudaGraphExec_t exec; /* größe */ cudaGraphInstantiate(&exec, g, 0);
}

void clean(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}
