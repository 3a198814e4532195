// Captures a step into a graph and replays it; the exec leaks when the
// replay count is zero.
#include "stream_pool.h"

__global__ void step_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
}

int replay(float *x, int n, int times) {
  cudaStream_t s = make_side_stream(true);
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (times == 0)
    { cudaStreamDestroy(s); return 0; }
  for (int t = 0; t < times; ++t)
    cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  cudaStreamDestroy(s);
  return times;
}
