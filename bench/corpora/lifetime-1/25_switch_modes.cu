// Mode dispatch with a switch.
#include <cuda_runtime.h>
#include <cstdio>

enum class RunMode { kEager, kGraph, kGraphUpload, kDryRun };

// Buggy: the dry-run case instantiates to validate and then breaks out
// without destroying.
int dispatch(RunMode mode, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  switch (mode) {
  case RunMode::kEager:
    return 0;
  case RunMode::kGraph:
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return -1;
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    break;
  case RunMode::kGraphUpload:
    if (cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagUpload) != cudaSuccess)
      return -1;
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    break;
  case RunMode::kDryRun:
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return -1;
    printf("graph is instantiable\n");
    break;
  }
  return 0;
}

// Correct: shared cleanup after the switch.
int dispatch_ok(RunMode mode, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  int rc = 0;
  switch (mode) {
  case RunMode::kEager:
    break;
  case RunMode::kGraph:
  case RunMode::kDryRun:
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
      rc = -1;
      break;
    }
    if (mode == RunMode::kGraph)
      cudaGraphLaunch(exec, s);
    break;
  case RunMode::kGraphUpload:
    if (cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagUpload) != cudaSuccess)
      rc = -1;
    else
      cudaGraphLaunch(exec, s);
    break;
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  return rc;
}
