// C-style bring-up code with goto-based unwinding.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void fill_kernel(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

// Correct: one label, every handle initialised to NULL.
int graph_selftest(int n) {
  int rc = 1;
  float *d = NULL;
  cudaStream_t s = NULL;
  cudaGraph_t g = NULL;
  cudaGraphExec_t x = NULL;

  if (cudaMalloc((void **)&d, n * sizeof(float)) != cudaSuccess)
    goto out;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
    goto out;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    goto out;
  fill_kernel<<<(n + 255) / 256, 256, 0, s>>>(d, 1.0f, n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    goto out;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess)
    goto out;
  if (cudaGraphLaunch(x, s) != cudaSuccess)
    goto out;
  if (cudaStreamSynchronize(s) != cudaSuccess)
    goto out;
  rc = 0;
out:
  if (x)
    cudaGraphExecDestroy(x);
  if (g)
    cudaGraphDestroy(g);
  if (s)
    cudaStreamDestroy(s);
  if (d)
    cudaFree(d);
  return rc;
}

// Buggy: layered labels, but the sync failure jumps to the label below the
// exec destroy.
int graph_selftest_layered(float *d, int n, cudaStream_t s) {
  int rc = -1;
  cudaGraph_t g;
  cudaGraphExec_t x;

  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return -1;
  fill_kernel<<<(n + 255) / 256, 256, 0, s>>>(d, 2.0f, n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    return -1;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    goto destroy_graph;
  if (cudaGraphLaunch(x, s) != cudaSuccess)
    goto destroy_exec;
  if (cudaStreamSynchronize(s) != cudaSuccess)
    goto destroy_graph;
  rc = 0;
destroy_exec:
  cudaGraphExecDestroy(x);
destroy_graph:
  cudaGraphDestroy(g);
  return rc;
}

// Correct: the same layering done right.
int graph_selftest_layered_ok(float *d, int n, cudaStream_t s) {
  int rc = -1;
  cudaGraph_t g;
  cudaGraphExec_t x;

  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return -1;
  fill_kernel<<<(n + 255) / 256, 256, 0, s>>>(d, 2.0f, n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    return -1;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess)
    goto destroy_graph;
  if (cudaGraphLaunch(x, s) != cudaSuccess)
    goto destroy_exec;
  if (cudaStreamSynchronize(s) != cudaSuccess)
    goto destroy_exec;
  rc = 0;
destroy_exec:
  cudaGraphExecDestroy(x);
destroy_graph:
  cudaGraphDestroy(g);
  return rc;
}
