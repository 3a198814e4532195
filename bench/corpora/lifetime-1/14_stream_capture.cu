// Stream capture helpers: begin/end capture, instantiate, drop the graph.
#include <cuda_runtime.h>
#include <cstdio>
#include <utility>

__global__ void gelu_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.5f;
}

// Correct: generic capture helper that hands the exec back.
template <typename Body>
cudaGraphExec_t capture_exec(cudaStream_t s, Body &&body) {
  cudaGraph_t g = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    return nullptr;
  body(s);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    return nullptr;
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  return st == cudaSuccess ? e : nullptr;
}

// Correct caller.
void gelu_graph(float *x, int n, cudaStream_t s, int reps) {
  cudaGraphExec_t e = capture_exec(s, [&](cudaStream_t st) {
    gelu_kernel<<<(n + 255) / 256, 256, 0, st>>>(x, n);
  });
  if (!e)
    return;
  for (int i = 0; i < reps; ++i)
    cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: the post-instantiate sync failure destroys the graph but not the exec.
bool capture_and_validate(float *x, int n, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  gelu_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
    return false;
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    return false;
  }
  cudaGraphLaunch(exec, s);
  if (cudaStreamSynchronize(s) != cudaSuccess) {
    cudaGraphDestroy(graph);
    return false;
  }
  cudaGraphDestroy(graph);
  *out = exec;
  return true;
}

// Correct: capture into a caller-provided graph, instantiate, return both.
std::pair<cudaGraph_t, cudaGraphExec_t> capture_pair(float *x, int n, cudaStream_t s) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  gelu_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
    return {nullptr, nullptr};
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
    cudaGraphDestroy(graph);
    return {nullptr, nullptr};
  }
  return {graph, exec};
}
