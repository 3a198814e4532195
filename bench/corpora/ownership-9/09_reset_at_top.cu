// Capture paths that release the previous capture before acquiring again:
// reset() at the top of capture(), a same-file free function that destroys
// through a pointer to the member, and cudaGraphExecUpdate with a fallback that
// destroys before re-instantiating. All correct.
#include <cuda_runtime.h>

__global__ void gelu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f;
}

static void destroy_exec(cudaGraphExec_t *e) {
  if (*e) {
    cudaGraphExecDestroy(*e);
    *e = nullptr;
  }
}

static void destroy_graph(cudaGraph_t *g) {
  if (*g) cudaGraphDestroy(*g);
  *g = nullptr;
}

class PiecewiseRunner {
 public:
  explicit PiecewiseRunner(cudaStream_t s) : stream_(s) {}
  ~PiecewiseRunner() { reset(); }
  PiecewiseRunner(const PiecewiseRunner &) = delete;
  PiecewiseRunner &operator=(const PiecewiseRunner &) = delete;

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

  cudaError_t capture(float *x, int n) {
    reset();
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    gelu<<<(n + 255) / 256, 256, 0, stream_>>>(x, n);
    st = cudaStreamEndCapture(stream_, &graph_);
    if (st != cudaSuccess) return st;
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class HelperRunner {
 public:
  explicit HelperRunner(cudaStream_t s) : stream_(s) {}
  ~HelperRunner() {
    destroy_exec(&exec_);
    destroy_graph(&graph_);
  }
  HelperRunner(const HelperRunner &) = delete;
  HelperRunner &operator=(const HelperRunner &) = delete;

  cudaError_t capture(float *x, int n) {
    destroy_exec(&exec_);
    destroy_graph(&graph_);
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    gelu<<<(n + 255) / 256, 256, 0, stream_>>>(x, n);
    st = cudaStreamEndCapture(stream_, &graph_);
    if (st != cudaSuccess) return st;
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class UpdatingRunner {
 public:
  explicit UpdatingRunner(cudaStream_t s) : stream_(s) {}
  ~UpdatingRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  UpdatingRunner(const UpdatingRunner &) = delete;
  UpdatingRunner &operator=(const UpdatingRunner &) = delete;

  cudaError_t capture(float *x, int n) {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    gelu<<<(n + 255) / 256, 256, 0, stream_>>>(x, n);
    st = cudaStreamEndCapture(stream_, &g);
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess) {
        cudaGraphDestroy(g);
        return cudaSuccess;
      }
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return st;
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_;
  cudaGraphExec_t exec_ = nullptr;
};

void drive(cudaStream_t s, float *x, int n, int iters) {
  PiecewiseRunner a(s);
  HelperRunner b(s);
  UpdatingRunner c(s);
  for (int i = 0; i < iters; ++i) {
    int len = n - i;
    a.capture(x, len);
    a.replay();
    b.capture(x, len);
    c.capture(x, len);
    c.replay();
  }
}
