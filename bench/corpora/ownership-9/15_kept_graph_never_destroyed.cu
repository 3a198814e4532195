// Runners that keep the captured graph in a member so that kernel parameters
// can be patched with cudaGraphExecKernelNodeSetParams later. ParamPatchRunner
// destroys the exec but never the graph; KeptGraphRunner destroys both, and
// releases the old graph before a re-capture.
#include <cuda_runtime.h>

__global__ void rope(float *q, int n, int pos) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] += (float)pos;
}

class ParamPatchRunner {
 public:
  explicit ParamPatchRunner(cudaStream_t s) : stream_(s) {}
  ~ParamPatchRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  ParamPatchRunner(const ParamPatchRunner &) = delete;
  ParamPatchRunner &operator=(const ParamPatchRunner &) = delete;

  cudaError_t build(float *q, int n) {
    if (exec_) return cudaSuccess;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    rope<<<(n + 255) / 256, 256, 0, stream_>>>(q, n, 0);
    st = cudaStreamEndCapture(stream_, &graph_); // EXPECT: cudagraph-capture-without-destroy
    if (st != cudaSuccess) return st;
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  size_t node_count() const {
    size_t n = 0;
    if (graph_) cudaGraphGetNodes(graph_, nullptr, &n);
    return n;
  }

  cudaError_t run() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class KeptGraphRunner {
 public:
  explicit KeptGraphRunner(cudaStream_t s) : stream_(s) {}
  ~KeptGraphRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  KeptGraphRunner(const KeptGraphRunner &) = delete;
  KeptGraphRunner &operator=(const KeptGraphRunner &) = delete;

  cudaError_t build(float *q, int n) {
    if (graph_) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    rope<<<(n + 255) / 256, 256, 0, stream_>>>(q, n, 0);
    st = cudaStreamEndCapture(stream_, &graph_);
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, graph_, &info) == cudaSuccess) return cudaSuccess;
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  size_t node_count() const {
    size_t n = 0;
    if (graph_) cudaGraphGetNodes(graph_, nullptr, &n);
    return n;
  }

  cudaError_t run() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int run_both(cudaStream_t s, float *q, int n, int steps) {
  ParamPatchRunner a(s);
  KeptGraphRunner b(s);
  for (int i = 0; i < steps; ++i) {
    if (a.build(q, n) != cudaSuccess) return 1;
    if (b.build(q, n + i) != cudaSuccess) return 2;
    a.run();
    b.run();
  }
  return (int)(a.node_count() + b.node_count());
}
