// Wrappers defined in another translation unit, described to the check with
// the ApiModelFiles option in .clang-tidy.
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -config="{CheckOptions: {cudagraph-unpaired-instantiate.ApiModelFiles: '%S/Inputs/wrappers.json'}}"
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t.nomodel -check-suffix=NOMODEL
#include <cuda_runtime.h>

namespace gpu {
cudaError_t make_exec(cudaGraphExec_t *out, cudaGraph_t g);
void drop_exec(cudaGraphExec_t e);
void drop_exec_and_clear(cudaGraphExec_t *e);
} // namespace gpu

void leak_wrapper_acquire(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (gpu::make_exec(&e, g) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'gpu::make_exec' is not destroyed on every path
    return;
  cudaGraphLaunch(e, s);
}

void clean_wrapper_pair(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (gpu::make_exec(&e, g) != cudaSuccess)
    return;
  cudaGraphLaunch(e, s);
  gpu::drop_exec(e);
}

void clean_wrapper_release(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  gpu::drop_exec(e);
}

void clean_wrapper_release_through_pointer(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  gpu::drop_exec_and_clear(&e);
}

// Without the model the wrappers are unknown functions: the exec escapes into
// them, and nothing is reported.
