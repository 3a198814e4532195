// cudaGraphExecUpdate with a re-instantiation fallback.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale_kernel(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

static cudaGraph_t capture_scale(cudaStream_t s, float *x, float a, int n) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  scale_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, a, n);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: destroy the stale exec before the fallback instantiation.
void run_schedule(cudaStream_t s, float *x, int n, const float *alphas, int steps) {
  cudaGraphExec_t exec = nullptr;
  for (int t = 0; t < steps; ++t) {
    cudaGraph_t g = capture_scale(s, x, alphas[t], n);
    if (exec == nullptr) {
      cudaGraphInstantiate(&exec, g, 0);
    } else {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(exec);
        cudaGraphInstantiate(&exec, g, 0);
      }
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

// Buggy: the fallback forgets to destroy the exec that failed to update.
void run_schedule_leaky(cudaStream_t s, float *x, int n, const float *alphas, int steps) {
  cudaGraphExec_t exec = nullptr;
  for (int t = 0; t < steps; ++t) {
    cudaGraph_t g = capture_scale(s, x, alphas[t], n);
    if (exec == nullptr) {
      cudaGraphInstantiate(&exec, g, 0);
    } else {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
      }
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

class ScaleRunner {
public:
  ~ScaleRunner() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
  // Correct member-based variant.
  void step(cudaStream_t s, float *x, float a, int n) {
    cudaGraph_t g = capture_scale(s, x, a, n);
    cudaGraphExecUpdateResultInfo info;
    if (exec_ == nullptr || cudaGraphExecUpdate(exec_, g, &info) != cudaSuccess) {
      if (exec_)
        cudaGraphExecDestroy(exec_);
      cudaGraphInstantiate(&exec_, g, 0);
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec_, s);
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};
