// Solver step that optionally uses CUDA graphs, chosen at build time.
// BUGGY: in the graph build, a failed launch returns without destroying.
#include <cuda_runtime.h>
#include <cstdio>

#define USE_GRAPHS 1

__global__ void relax(float *u, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) u[i] = 0.5f * (u[i - 1] + u[i + 1] - f[i]);
}

static void enqueue_sweeps(float *u, const float *f, int n, int sweeps, cudaStream_t s) {
  for (int k = 0; k < sweeps; ++k)
    relax<<<(n + 127) / 128, 128, 0, s>>>(u, f, n);
}

bool smooth(float *u, const float *f, int n, int sweeps, cudaStream_t s) {
#ifdef USE_GRAPHS
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  enqueue_sweeps(u, f, n, sweeps, s);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) return false;
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return false;
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    std::fprintf(stderr, "launch failed\n");
    return false;
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  return true;
#else
  enqueue_sweeps(u, f, n, sweeps, s);
  return cudaStreamSynchronize(s) == cudaSuccess;
#endif
}

#ifndef USE_GRAPHS_DEBUG
// CORRECT: the exec is cached in a global and destroyed at shutdown.
static cudaGraphExec_t g_cached_exec = nullptr;

bool smooth_cached(cudaGraph_t g, cudaStream_t s) {
  if (!g_cached_exec) {
#if defined(USE_GRAPHS) && USE_GRAPHS
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
    g_cached_exec = e;
#else
    return false;
#endif
  }
  return cudaGraphLaunch(g_cached_exec, s) == cudaSuccess;
}

void shutdown_cached() {
  if (g_cached_exec) cudaGraphExecDestroy(g_cached_exec);
  g_cached_exec = nullptr;
}
#endif
