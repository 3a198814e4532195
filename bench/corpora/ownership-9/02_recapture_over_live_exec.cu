// Two graph runners of a serving engine. Both keep the exec in a member and
// release it in reset() and the destructor. The first re-instantiates in
// capture() without destroying the exec of a previous capture (the engine
// calls capture() again whenever the max batch size grows); the second is the
// fixed version.
#include <cuda_runtime.h>
#include <cstddef>

__global__ void fused_mlp(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

class LeakyGraphRunner {
 public:
  explicit LeakyGraphRunner(cudaStream_t s) : stream_(s) {}
  ~LeakyGraphRunner() { reset(); }
  LeakyGraphRunner(const LeakyGraphRunner &) = delete;
  LeakyGraphRunner &operator=(const LeakyGraphRunner &) = delete;

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

  cudaError_t capture(const float *x, float *y, int n) {
    cudaGraph_t graph = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    fused_mlp<<<(n + 255) / 256, 256, 0, stream_>>>(x, y, n);
    st = cudaStreamEndCapture(stream_, &graph);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&exec_, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    return st;
  }

  cudaError_t run() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraphExec_t exec_ = nullptr;
};

class GraphRunner {
 public:
  explicit GraphRunner(cudaStream_t s) : stream_(s) {}
  ~GraphRunner() { reset(); }
  GraphRunner(const GraphRunner &) = delete;
  GraphRunner &operator=(const GraphRunner &) = delete;

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

  cudaError_t capture(const float *x, float *y, int n) {
    cudaGraph_t graph = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    fused_mlp<<<(n + 255) / 256, 256, 0, stream_>>>(x, y, n);
    st = cudaStreamEndCapture(stream_, &graph);
    if (st != cudaSuccess) return st;
    if (exec_) cudaGraphExecDestroy(exec_);
    st = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    return st;
  }

  cudaError_t run() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraphExec_t exec_ = nullptr;
};

int grow_and_serve(cudaStream_t s, const float *x, float *y, const int *sizes, int count) {
  LeakyGraphRunner leaky(s);
  GraphRunner fixed(s);
  int max_n = 0;
  for (int i = 0; i < count; ++i) {
    if (sizes[i] > max_n) {
      max_n = sizes[i];
      if (leaky.capture(x, y, max_n) != cudaSuccess) return 1;
      if (fixed.capture(x, y, max_n) != cudaSuccess) return 1;
    }
    leaky.run();
    fixed.run();
  }
  return 0;
}
