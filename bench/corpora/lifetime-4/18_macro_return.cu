// Macros that log and `return false`.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_TRY(call)                                                      \
  do {                                                                      \
    cudaError_t e_ = (call);                                                \
    if (e_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                \
                   cudaGetErrorString(e_));                                 \
      return false;                                                         \
    }                                                                       \
  } while (0)

#define CUDA_TRY_OR(call, cleanup)                                          \
  do {                                                                      \
    cudaError_t e_ = (call);                                                \
    if (e_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s failed\n", #call);                           \
      cleanup;                                                              \
      return false;                                                         \
    }                                                                       \
  } while (0)

bool replay_macro(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_TRY(cudaGraphInstantiate(&exec, g, 0));
  CUDA_TRY_OR(cudaGraphLaunch(exec, s), cudaGraphExecDestroy(exec));
  CUDA_TRY_OR(cudaStreamSynchronize(s), cudaGraphExecDestroy(exec));
  CUDA_TRY(cudaGraphExecDestroy(exec));
  return true;
}

bool instantiate_into(cudaGraph_t g, cudaGraphExec_t *out) {
  CUDA_TRY(cudaGraphInstantiate(out, g, 0));
  return true;
}

// BUG: the plain CUDA_TRY on the launch returns without destroying the exec.
bool replay_macro_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_TRY(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  CUDA_TRY(cudaGraphLaunch(exec, s));
  cudaGraphExecDestroy(exec);
  return true;
}
