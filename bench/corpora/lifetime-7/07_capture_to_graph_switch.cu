// cudaStreamBeginCaptureToGraph appends captured work to a pre-built graph;
// the execution policy is chosen by a switch on an enum.
#include <cuda_runtime.h>

enum class Policy { Once, Repeat, Upload, DryRun };

__global__ void preprocess(float *x, int n) {}
__global__ void postprocess(float *x, int n) {}

static cudaError_t appendCapture(cudaGraph_t graph, cudaGraphNode_t root, float *x,
                                 int n, cudaStream_t s) {
  cudaError_t e = cudaStreamBeginCaptureToGraph(s, graph, &root, nullptr, 1,
                                                cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess) return e;
  preprocess<<<1, 256, 0, s>>>(x, n);
  postprocess<<<1, 256, 0, s>>>(x, n);
  cudaGraph_t same;
  return cudaStreamEndCapture(s, &same);
}

// Correct: every case either destroys or breaks to the common destroy.
cudaError_t execute(Policy p, float *x, int n, cudaStream_t s) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t root;
  cudaGraphAddEmptyNode(&root, graph, nullptr, 0);
  cudaError_t e = appendCapture(graph, root, x, n, s);
  if (e != cudaSuccess) { cudaGraphDestroy(graph); return e; }
  cudaGraphExec_t exec;
  e = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (e != cudaSuccess) return e;
  switch (p) {
  case Policy::Once:
    e = cudaGraphLaunch(exec, s);
    break;
  case Policy::Repeat:
    for (int i = 0; i < 8 && e == cudaSuccess; ++i)
      e = cudaGraphLaunch(exec, s);
    break;
  case Policy::Upload:
    e = cudaGraphUpload(exec, s);
    if (e != cudaSuccess) break;
    [[fallthrough]];
  case Policy::DryRun:
    e = cudaSuccess;
    break;
  }
  cudaGraphExecDestroy(exec);
  return e;
}

// Buggy: DryRun returns directly from the switch.
cudaError_t executeBuggy(Policy p, float *x, int n, cudaStream_t s) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t root;
  cudaGraphAddEmptyNode(&root, graph, nullptr, 0);
  appendCapture(graph, root, x, n, s);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);
  if (e != cudaSuccess) return e;
  switch (p) {
  case Policy::Once:
    e = cudaGraphLaunch(exec, s);
    break;
  case Policy::Repeat:
    for (int i = 0; i < 8; ++i)
      cudaGraphLaunch(exec, s);
    break;
  case Policy::DryRun:
    return cudaSuccess;  // leak
  default:
    break;
  }
  cudaGraphExecDestroy(exec);
  return e;
}

// Correct: exhaustive switch where each case destroys itself.
void executeEach(Policy p, cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
    return;
  switch (p) {
  case Policy::Once:
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    return;
  case Policy::Repeat:
    cudaGraphLaunch(exec, s);
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    return;
  case Policy::Upload:
  case Policy::DryRun:
    cudaGraphExecDestroy(exec);
    return;
  }
  cudaGraphExecDestroy(exec);
}
