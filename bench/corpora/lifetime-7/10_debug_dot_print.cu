// cudaGraphDebugDotPrint in debug paths controlled by an environment flag.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>

__global__ void attention(const float *q, const float *k, float *o, int n) {}

static bool debugGraphs() {
  const char *v = std::getenv("DUMP_CUDA_GRAPHS");
  return v && std::strcmp(v, "1") == 0;
}

static bool dumpOnly() {
  const char *v = std::getenv("DUMP_CUDA_GRAPHS_ONLY");
  return v != nullptr;
}

// Correct: the dump happens on the graph; the exec is destroyed.
void attentionStep(const float *q, const float *k, float *o, int n, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  attention<<<n, 128, 0, s>>>(q, k, o, n);
  cudaStreamEndCapture(s, &g);
  if (debugGraphs())
    cudaGraphDebugDotPrint(g, "attention.dot", cudaGraphDebugDotFlagsVerbose);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) == cudaSuccess) {
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
  }
  cudaGraphDestroy(g);
}

// Buggy: in dump-only mode the function returns after instantiation (to
// validate the graph) but forgets the exec.
int validateAndDump(const float *q, const float *k, float *o, int n, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  attention<<<n, 128, 0, s>>>(q, k, o, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (debugGraphs()) {
    cudaGraphDebugDotPrint(g, "validate.dot", cudaGraphDebugDotFlagsKernelNodeParams);
    if (dumpOnly()) {
      cudaGraphDestroy(g);
      return e == cudaSuccess ? 0 : 1;
    }
  }
  cudaGraphDestroy(g);
  if (e != cudaSuccess)
    return 1;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return 0;
}

// Correct: the dump-only path destroys the exec first.
int validateAndDumpFixed(const float *q, const float *k, float *o, int n,
                         cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  attention<<<n, 128, 0, s>>>(q, k, o, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  if (debugGraphs()) {
    cudaGraphDebugDotPrint(g, "validate.dot", cudaGraphDebugDotFlagsVerbose);
    if (dumpOnly()) {
      if (e == cudaSuccess)
        cudaGraphExecDestroy(exec);
      cudaGraphDestroy(g);
      return e == cudaSuccess ? 0 : 1;
    }
  }
  cudaGraphDestroy(g);
  if (e != cudaSuccess)
    return 1;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return 0;
}
