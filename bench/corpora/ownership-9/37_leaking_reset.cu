// Multi-stream capture runners whose reset() is the only release path (the
// destructor and capture() call it). capture() forks onto a side stream with an
// event created on first use. ForkRunner::reset() releases the exec, the graph
// and the side stream but not the fork/join events; JoinRunner::reset()
// releases everything.
#include <cuda_runtime.h>

__global__ void qkv(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}
__global__ void mlp(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}

class ForkRunner {
 public:
  explicit ForkRunner(cudaStream_t main) : main_(main) {}
  ~ForkRunner() { reset(); }
  ForkRunner(const ForkRunner &) = delete;
  ForkRunner &operator=(const ForkRunner &) = delete;

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (side_) cudaStreamDestroy(side_);
    exec_ = nullptr;
    graph_ = nullptr;
    side_ = nullptr;
  }

  cudaError_t capture(float *a, float *b, int n) {
    reset();
    cudaError_t st = cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking);
    if (st != cudaSuccess) return st;
    if (!fork_) {
      if ((st = cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming)) != cudaSuccess) return st; // EXPECT: cudagraph-handle-leak
    }
    if (!join_) {
      if ((st = cudaEventCreateWithFlags(&join_, cudaEventDisableTiming)) != cudaSuccess) return st; // EXPECT: cudagraph-handle-leak
    }
    if ((st = cudaStreamBeginCapture(main_, cudaStreamCaptureModeThreadLocal)) != cudaSuccess) return st;
    cudaEventRecord(fork_, main_);
    cudaStreamWaitEvent(side_, fork_, 0);
    qkv<<<(n + 255) / 256, 256, 0, main_>>>(a, n);
    mlp<<<(n + 255) / 256, 256, 0, side_>>>(b, n);
    cudaEventRecord(join_, side_);
    cudaStreamWaitEvent(main_, join_, 0);
    if ((st = cudaStreamEndCapture(main_, &graph_)) != cudaSuccess) return st;
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, main_); }

 private:
  cudaStream_t main_;
  cudaStream_t side_ = nullptr;
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t join_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class JoinRunner {
 public:
  explicit JoinRunner(cudaStream_t main) : main_(main) {}
  ~JoinRunner() { reset(); }
  JoinRunner(const JoinRunner &) = delete;
  JoinRunner &operator=(const JoinRunner &) = delete;

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (side_) cudaStreamDestroy(side_);
    if (fork_) cudaEventDestroy(fork_);
    if (join_) cudaEventDestroy(join_);
    exec_ = nullptr;
    graph_ = nullptr;
    side_ = nullptr;
    fork_ = nullptr;
    join_ = nullptr;
  }

  cudaError_t capture(float *a, float *b, int n) {
    reset();
    cudaError_t st = cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking);
    if (st != cudaSuccess) return st;
    if ((st = cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming)) != cudaSuccess) return st;
    if ((st = cudaEventCreateWithFlags(&join_, cudaEventDisableTiming)) != cudaSuccess) return st;
    if ((st = cudaStreamBeginCapture(main_, cudaStreamCaptureModeThreadLocal)) != cudaSuccess) return st;
    cudaEventRecord(fork_, main_);
    cudaStreamWaitEvent(side_, fork_, 0);
    qkv<<<(n + 255) / 256, 256, 0, main_>>>(a, n);
    mlp<<<(n + 255) / 256, 256, 0, side_>>>(b, n);
    cudaEventRecord(join_, side_);
    cudaStreamWaitEvent(main_, join_, 0);
    if ((st = cudaStreamEndCapture(main_, &graph_)) != cudaSuccess) return st;
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, main_); }

 private:
  cudaStream_t main_;
  cudaStream_t side_ = nullptr;
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t join_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int layer_loop(cudaStream_t main, float *a, float *b, const int *sizes, int steps) {
  ForkRunner f(main);
  JoinRunner j(main);
  for (int i = 0; i < steps; ++i) {
    if (i == 0 || sizes[i] != sizes[i - 1]) {
      if (f.capture(a, b, sizes[i]) != cudaSuccess) return 1;
      if (j.capture(a, b, sizes[i]) != cudaSuccess) return 2;
    }
    f.replay();
    j.replay();
  }
  return 0;
}
