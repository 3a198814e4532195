// Parameter refresh via cudaGraphExecUpdate, falling back to a fresh
// instantiation when the topology changed.
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {}

static cudaGraph_t captureScale(float *x, float a, int n, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<(n + 255) / 256, 256, 0, s>>>(x, a, n);
  cudaStreamEndCapture(s, &g);
  return g;
}

class ScaleRunner {
public:
  ~ScaleRunner() { if (exec_) cudaGraphExecDestroy(exec_); }

  // Correct: update, otherwise destroy and re-instantiate.
  void run(float *x, float a, int n, cudaStream_t s) {
    cudaGraph_t g = captureScale(x, a, n, s);
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(exec_);
        exec_ = nullptr;
      }
    }
    if (!exec_)
      cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec_, s);
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

// Correct: local exec, update-then-fallback inside a loop.
void refreshLoop(float *x, int n, cudaStream_t s, int steps) {
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < steps; ++i) {
    cudaGraph_t g = captureScale(x, 1.0f + i, n, s);
    if (exec == nullptr) {
      cudaGraphInstantiate(&exec, g, 0);
    } else {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
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

// Buggy: fallback re-instantiates over the exec that failed to update.
void refreshLoopBuggy(float *x, int n, cudaStream_t s, int steps) {
  cudaGraphExec_t exec = nullptr;
  cudaGraph_t g0 = captureScale(x, 1.0f, n, s);
  cudaGraphInstantiate(&exec, g0, 0);
  cudaGraphDestroy(g0);
  for (int i = 1; i < steps; ++i) {
    cudaGraph_t g = captureScale(x, 1.0f + i, n, s);
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess)
      cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
  }
  cudaGraphExecDestroy(exec);
}

// Correct: instantiate with params; failure reported through the return
// value means there is nothing to destroy.
cudaError_t instantiateChecked(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiateWithParams(&exec, g, &p);
  if (e != cudaSuccess)
    return e;
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}
