// Capture methods of a training step graph. Captures are global-mode. The
// first runner lazily allocates its workspace and runs a debug sync inside the
// capture; the second allocates up front and syncs after the capture ends.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>

__global__ void grad_step(float *w, const float *g, float *ws, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    ws[i] = g[i] * 0.01f;
    w[i] -= ws[i];
  }
}

struct StepOptions {
  bool debug_sync = false;
  bool check_nan = false;
  int n = 1 << 20;
};

class LazyStepGraph {
 public:
  LazyStepGraph(cudaStream_t s, const StepOptions &o) : stream_(s), opts_(o) {}
  ~LazyStepGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaFree(ws_);
  }
  LazyStepGraph(const LazyStepGraph &) = delete;
  LazyStepGraph &operator=(const LazyStepGraph &) = delete;

  cudaError_t capture(float *w, const float *g) {
    if (exec_) return cudaSuccess;
    cudaGraph_t graph = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    if (!ws_) cudaMalloc(&ws_, opts_.n * sizeof(float)); // EXPECT: cudagraph-capture-unsafe-call
    grad_step<<<(opts_.n + 255) / 256, 256, 0, stream_>>>(w, g, ws_, opts_.n);
    if (opts_.debug_sync) cudaStreamSynchronize(stream_); // EXPECT: cudagraph-capture-unsafe-call
    st = cudaStreamEndCapture(stream_, &graph);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    return st;
  }

  cudaError_t step() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  StepOptions opts_;
  float *ws_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class StepGraph {
 public:
  StepGraph(cudaStream_t s, const StepOptions &o) : stream_(s), opts_(o) {}
  ~StepGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaFree(ws_);
  }
  StepGraph(const StepGraph &) = delete;
  StepGraph &operator=(const StepGraph &) = delete;

  cudaError_t capture(float *w, const float *g) {
    if (exec_) return cudaSuccess;
    if (!ws_) {
      cudaError_t st = cudaMalloc(&ws_, opts_.n * sizeof(float));
      if (st != cudaSuccess) return st;
    }
    cudaGraph_t graph = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    grad_step<<<(opts_.n + 255) / 256, 256, 0, stream_>>>(w, g, ws_, opts_.n);
    st = cudaStreamEndCapture(stream_, &graph);
    if (st != cudaSuccess) return st;
    if (opts_.debug_sync) cudaStreamSynchronize(stream_);
    st = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    return st;
  }

  cudaError_t step() {
    cudaError_t st = cudaGraphLaunch(exec_, stream_);
    if (opts_.check_nan && st == cudaSuccess) st = cudaStreamSynchronize(stream_);
    return st;
  }

 private:
  cudaStream_t stream_;
  StepOptions opts_;
  float *ws_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int train(cudaStream_t s, float *w, const float *g, int steps, bool debug) {
  StepOptions o;
  o.debug_sync = debug;
  LazyStepGraph lazy(s, o);
  StepGraph fixed(s, o);
  if (lazy.capture(w, g) != cudaSuccess || fixed.capture(w, g) != cudaSuccess) {
    std::fprintf(stderr, "capture failed\n");
    return 1;
  }
  for (int i = 0; i < steps; ++i) {
    lazy.step();
    fixed.step();
  }
  return 0;
}
