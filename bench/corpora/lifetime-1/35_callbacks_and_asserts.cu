// std::function callbacks, assert() and status variables checked later.
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>
#include <functional>

using ExecSink = std::function<void(cudaGraphExec_t)>;

// Correct: handed to a caller-supplied callback.
bool build_and_hand_off(cudaGraph_t g, const ExecSink &sink) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  sink(e);
  return true;
}

// Correct: assert() on the status (failure path aborts), then cleanup.
void run_asserted(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  assert(st == cudaSuccess);
  (void)st;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: status stored, launch attempted, status tested late and the exec is
// only destroyed on the success path.
bool run_late_check(cudaGraph_t g, cudaStream_t s, int reps) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (st != cudaSuccess)
    return false;
  for (int i = 0; i < reps; ++i) {
    st = cudaGraphLaunch(e, s);
    if (st != cudaSuccess)
      break;
  }
  if (st != cudaSuccess)
    return false;
  cudaGraphExecDestroy(e);
  return true;
}

// Correct: the same loop with the destroy before the late check.
bool run_late_check_ok(cudaGraph_t g, cudaStream_t s, int reps) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess)
    return false;
  for (int i = 0; i < reps; ++i) {
    st = cudaGraphLaunch(e, s);
    if (st != cudaSuccess)
      break;
  }
  cudaGraphExecDestroy(e);
  return st == cudaSuccess;
}
