// Explicit time stepping with a captured step graph and a convergence test.
// BUGGY: the convergence break skips the destroy of the current exec.
#include <cuda_runtime.h>
#include <cmath>
#include <stdexcept>

__global__ void advance(float *u, float *un, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) un[i] = u[i] + dt * (u[i - 1] - 2 * u[i] + u[i + 1]);
}

static cudaGraph_t capture_step(float *u, float *un, float dt, int n, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  advance<<<(n + 255) / 256, 256, 0, s>>>(u, un, dt, n);
  advance<<<(n + 255) / 256, 256, 0, s>>>(un, u, dt, n);
  cudaStreamEndCapture(s, &g);
  return g;
}

extern float residual(const float *u, int n, cudaStream_t s);

int integrate(float *u, float *un, int n, int max_steps, float tol, cudaStream_t s) {
  float dt = 1e-3f;
  int step = 0;
  while (step < max_steps) {
    cudaGraph_t g = capture_step(u, un, dt, n, s);
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      return -1;
    }
    cudaGraphDestroy(g);
    bool rebuild = false;
    for (int k = 0; k < 100 && step < max_steps; ++k, ++step) {
      cudaGraphLaunch(e, s);
      float r = residual(u, n, s);
      if (r < tol) break;          // converged: falls out to the cleanup below
      if (!std::isfinite(r)) {
        dt *= 0.5f;
        rebuild = true;
        break;
      }
    }
    if (!rebuild) return step;     // BUG: e still live when converged / out of steps
    cudaGraphExecDestroy(e);
  }
  return step;
}

// CORRECT: update-in-place when dt changes, with destroy+re-instantiate fallback;
// divergence throws (uncaught here), convergence destroys before returning.
int integrate_ok(float *u, float *un, int n, int max_steps, float tol, cudaStream_t s) {
  float dt = 1e-3f;
  cudaGraph_t g = capture_step(u, un, dt, n, s);
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  int step = 0;
  for (; step < max_steps; ++step) {
    cudaGraphLaunch(e, s);
    float r = residual(u, n, s);
    if (r < tol) break;
    if (std::isnan(r)) throw std::runtime_error("diverged");
    if (r > 1e3f) {
      dt *= 0.5f;
      cudaGraph_t ng = capture_step(u, un, dt, n, s);
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(e, ng, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(e);
        if (cudaGraphInstantiate(&e, ng, 0) != cudaSuccess) {
          cudaGraphDestroy(ng);
          return -2;
        }
      }
      cudaGraphDestroy(ng);
    }
  }
  cudaGraphExecDestroy(e);
  return step;
}
