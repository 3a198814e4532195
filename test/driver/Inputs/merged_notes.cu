#include <cuda_runtime.h>

// The leak happens only where the launch failed and `created` was reset;
// the path that launched fine destroys the exec. Notes must follow the
// leaking path, though both paths reach the `if (created)` in one state.
cudaError_t created_flag(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  bool created = false;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  if (e == cudaSuccess) {
    created = true;
    e = cudaGraphLaunch(exec, s);
    if (e != cudaSuccess) created = false;
  }
  if (created)
    cudaGraphExecDestroy(exec);
  return e;
}
