// if-with-initializer status checks and cudaGetLastError patterns.
// CORRECT: the failure branches either have no exec or destroy it.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float *x, float a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }

cudaError_t run(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (auto st = cudaGraphInstantiate(&exec, g, 0); st != cudaSuccess) {
    std::fprintf(stderr, "instantiate failed: %s\n", cudaGetErrorName(st));
    return st;
  }
  if (auto st = cudaGraphLaunch(exec, s); st != cudaSuccess) {
    cudaGraphExecDestroy(exec);
    return st;
  }
  cudaError_t st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  return st;
}

cudaError_t capture_and_run(float *x, int n, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  scale<<<(n + 255) / 256, 256, 0, s>>>(x, 2.0f, n);
  if (cudaGetLastError() != cudaSuccess) {
    cudaStreamEndCapture(s, &g);
    if (g) cudaGraphDestroy(g);
    return cudaErrorLaunchFailure;
  }
  if (cudaError_t st = cudaStreamEndCapture(s, &g); st != cudaSuccess) return st;

  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (cudaError_t st = cudaGetLastError(); st != cudaSuccess) {
    if (e) cudaGraphExecDestroy(e);
    return st;
  }
  cudaGraphLaunch(e, s);
  cudaError_t st = cudaPeekAtLastError();
  cudaGraphExecDestroy(e);
  return st;
}

bool run_if_ok(cudaGraph_t g, cudaStream_t s) {
  if (cudaGraphExec_t e; cudaGraphInstantiate(&e, g, 0) == cudaSuccess) {
    bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
    cudaGraphExecDestroy(e);
    return ok;
  }
  return false;
}
