// do { ... break; } while (false) with a single cleanup block.
#include <cuda_runtime.h>
#include <cstdio>

int run_pipeline(cudaGraph_t g, cudaStream_t s, int iters) {
  int rc = -1;
  cudaGraphExec_t exec = nullptr;
  do {
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
      exec = nullptr;
      break;
    }
    if (cudaGraphUpload(exec, s) != cudaSuccess)
      break;
    bool failed = false;
    for (int i = 0; i < iters; ++i) {
      if (cudaGraphLaunch(exec, s) != cudaSuccess) { failed = true; break; }
    }
    if (failed)
      break;
    if (cudaStreamSynchronize(s) != cudaSuccess)
      break;
    rc = 0;
  } while (false);
  if (exec != nullptr)
    cudaGraphExecDestroy(exec);
  return rc;
}

// BUG: an early return inside the block bypasses the cleanup.
int run_pipeline_leaky(cudaGraph_t g, cudaStream_t s) {
  int rc = -1;
  cudaGraphExec_t exec = nullptr;
  do {
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      break;
    if (cudaGraphLaunch(exec, s) != cudaSuccess) {
      std::fprintf(stderr, "launch failed\n");
      return -2;
    }
    rc = 0;
  } while (0);
  if (exec)
    cudaGraphExecDestroy(exec);
  return rc;
}
