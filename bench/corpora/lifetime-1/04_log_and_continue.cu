// A logging-only check macro: errors are printed and execution continues.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define CUDA_WARN(call)                                                        \
  {                                                                            \
    cudaError_t err = call;                                                    \
    if (err != cudaSuccess)                                                    \
      fprintf(stderr, "[warn] %s:%d %s\n", __FILE__, __LINE__,                 \
              cudaGetErrorString(err));                                        \
  }

// Correct: whatever happened, the destroy is reached.
void run_layer_graph(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  CUDA_WARN(cudaGraphInstantiate(&exec, g, 0));
  CUDA_WARN(cudaGraphLaunch(exec, s));
  CUDA_WARN(cudaStreamSynchronize(s));
  CUDA_WARN(cudaGraphExecDestroy(exec));
}

// Buggy: one graph per layer; layers whose sync fails are skipped with
// `continue` before the destroy.
void run_all_layers(const std::vector<cudaGraph_t> &layers, cudaStream_t s) {
  for (size_t i = 0; i < layers.size(); ++i) {
    cudaGraphExec_t exec = nullptr;
    CUDA_WARN(cudaGraphInstantiate(&exec, layers[i], 0)); // EXPECT: cudagraph-unpaired-instantiate
    CUDA_WARN(cudaGraphLaunch(exec, s));
    if (cudaStreamSynchronize(s) != cudaSuccess) {
      fprintf(stderr, "layer %zu failed, skipping\n", i);
      continue;
    }
    CUDA_WARN(cudaGraphExecDestroy(exec));
  }
}

// Buggy: the profiling switch returns before cleanup.
void run_profiled(cudaGraph_t g, cudaStream_t s, bool dry_run) {
  cudaGraphExec_t exec = nullptr;
  CUDA_WARN(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  if (dry_run) {
    printf("dry run: graph instantiated\n");
    return;
  }
  CUDA_WARN(cudaGraphLaunch(exec, s));
  CUDA_WARN(cudaGraphExecDestroy(exec));
}

// Correct: failed instantiation leaves nothing to free, the check skips it.
void run_if_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
  if (err != cudaSuccess) {
    fprintf(stderr, "instantiate: %s\n", cudaGetErrorString(err));
    return;
  }
  CUDA_WARN(cudaGraphLaunch(exec, s));
  CUDA_WARN(cudaGraphExecDestroy(exec));
}
