// Conditional (IF / WHILE) nodes built explicitly, body filled by capture
// into the body graph.
#include <cuda_runtime.h>

__global__ void setCondition(cudaGraphConditionalHandle h, const int *flag) {}
__global__ void bodyKernel(float *data, int n) {}

static cudaError_t addIfNode(cudaGraph_t graph, cudaGraphConditionalHandle *handle,
                             cudaGraph_t *body) {
  cudaError_t e = cudaGraphConditionalHandleCreate(handle, graph, 0, cudaGraphCondAssignDefault);
  if (e != cudaSuccess) return e;
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = *handle;
  params.conditional.type = cudaGraphCondTypeIf;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  e = cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params);
  if (e != cudaSuccess) return e;
  *body = params.conditional.phGraph_out[0];
  return cudaSuccess;
}

// Correct: exec handed to the caller through an out-parameter.
cudaError_t buildConditional(float *data, int n, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraph_t graph;
  cudaError_t e = cudaGraphCreate(&graph, 0);
  if (e != cudaSuccess) return e;
  cudaGraphConditionalHandle h;
  cudaGraph_t body;
  if ((e = addIfNode(graph, &h, &body)) != cudaSuccess) {
    cudaGraphDestroy(graph);
    return e;
  }
  cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  bodyKernel<<<(n + 255) / 256, 256, 0, s>>>(data, n);
  cudaStreamEndCapture(s, &body);
  e = cudaGraphInstantiate(out, graph, 0);
  cudaGraphDestroy(graph);
  return e;
}

// Buggy: the upload fails and the error is propagated without destroying.
cudaError_t buildAndUpload(float *data, int n, cudaStream_t s) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle h;
  cudaGraph_t body;
  if (addIfNode(graph, &h, &body) != cudaSuccess) {
    cudaGraphDestroy(graph);
    return cudaErrorInvalidValue;
  }
  cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  bodyKernel<<<(n + 255) / 256, 256, 0, s>>>(data, n);
  cudaStreamEndCapture(s, &body);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);
  if (e != cudaSuccess) return e;
  e = cudaGraphUpload(exec, s);
  if (e != cudaSuccess) return e;  // exec leaked
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

// Correct: WHILE node, exec destroyed after the loop replays.
cudaError_t runWhile(float *data, int n, cudaStream_t s, int replays) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle h;
  cudaGraphConditionalHandleCreate(&h, graph, 1, cudaGraphCondAssignDefault);
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = h;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (e != cudaSuccess)
    return e;
  for (int i = 0; i < replays; ++i) {
    e = cudaGraphLaunch(exec, s);
    if (e != cudaSuccess)
      break;
  }
  cudaGraphExecDestroy(exec);
  return e;
}
