// PLANTED: none
// Capture each step, try cudaGraphExecUpdate, fall back to destroy + re-instantiate.
#include <cuda_runtime.h>

__global__ void step(float *x, int n, float dt) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += dt * x[i]; }

static cudaError_t capture(cudaStream_t s, float *x, int n, float dt, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (e != cudaSuccess) return e;
  step<<<(n + 255) / 256, 256, 0, s>>>(x, n, dt);
  return cudaStreamEndCapture(s, g);
}

int simulate(float *x, int n, int steps) {
  cudaStream_t s;
  cudaGraphExec_t exec = NULL;
  int rc = 0;
  if (cudaStreamCreate(&s) != cudaSuccess) return -1;
  for (int t = 0; t < steps && rc == 0; ++t) {
    cudaGraph_t g = NULL;
    if (capture(s, x, n, 0.01f * (t + 1), &g) != cudaSuccess) { rc = -1; break; }
    if (exec) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(exec);
        exec = NULL;
      }
    }
    if (!exec && cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { exec = NULL; rc = -1; }
    cudaGraphDestroy(g);
    if (rc == 0 && cudaGraphLaunch(exec, s) != cudaSuccess) rc = -1;
  }
  cudaStreamSynchronize(s);
  if (exec) cudaGraphExecDestroy(exec);
  cudaStreamDestroy(s);
  return rc;
}

int main(void) {
  float *x; int n = 4096;
  if (cudaMalloc((void **)&x, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemset(x, 0, n * sizeof(float));
  int rc = simulate(x, n, 10);
  cudaFree(x);
  return rc ? 1 : 0;
}
