// Training step split into phases; each phase may use a graph.
#include <cuda_runtime.h>

enum Phase { kForward, kBackward, kOptimizer, kEval, kNumPhases };

__global__ void phaseKernel(float *w, int phase) {}

static cudaGraph_t capturePhase(float *w, Phase p, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  phaseKernel<<<64, 256, 0, s>>>(w, p);
  cudaStreamEndCapture(s, &g);
  return g;
}

struct Trainer {
  cudaGraphExec_t execs[kNumPhases] = {};
  ~Trainer() {
    for (auto e : execs)
      if (e) cudaGraphExecDestroy(e);
  }

  // Correct: stored into a member array.
  void prepare(float *w, cudaStream_t s) {
    for (int p = 0; p < kNumPhases; ++p) {
      cudaGraph_t g = capturePhase(w, static_cast<Phase>(p), s);
      cudaGraphInstantiate(&execs[p], g, 0);
      cudaGraphDestroy(g);
    }
  }
};

// Buggy: eval uses a temporary exec that is only destroyed in one case.
int stepOnce(Phase p, float *w, cudaStream_t s, bool verbose) {
  cudaGraph_t g = capturePhase(w, p, s);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  int rc = 0;
  switch (p) {
  case kForward:
  case kBackward:
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    break;
  case kOptimizer:
    cudaGraphLaunch(exec, s);
    if (verbose)
      rc = 1;
    break;  // leak: optimizer exec never destroyed
  case kEval:
    cudaGraphExecDestroy(exec);
    rc = 2;
    break;
  default:
    cudaGraphExecDestroy(exec);
    rc = -2;
    break;
  }
  return rc;
}

// Correct: switch selects flags; one common destroy.
int stepWithFlags(Phase p, float *w, cudaStream_t s) {
  unsigned long long flags = 0;
  switch (p) {
  case kForward:
    flags = cudaGraphInstantiateFlagUseNodePriority;
    break;
  case kOptimizer:
    flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
    break;
  case kEval:
    return 0;  // nothing instantiated
  default:
    break;
  }
  cudaGraph_t g = capturePhase(w, p, s);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiateWithFlags(&exec, g, flags);
  cudaGraphDestroy(g);
  if (e != cudaSuccess)
    return -1;
  switch (p) {
  case kForward:
    cudaGraphLaunch(exec, s);
    break;
  default:
    cudaGraphUpload(exec, s);
    cudaGraphLaunch(exec, s);
    break;
  }
  cudaGraphExecDestroy(exec);
  return 0;
}
