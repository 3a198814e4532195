// Capture methods on a member stream. The begin/end pair is in one method, and
// a validation step between them returns early: BadCapture::capture leaves the
// member stream capturing on that path (every later launch on it is recorded
// instead of run). GoodCapture ends the capture before returning. SplitCapture
// begins in one method and ends in another by design (a torch-style
// capture_begin / capture_end API) and is correct.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void sample(const float *logits, int *ids, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ids[i] = logits[i] > 0.f;
}

#define RETURN_IF_ERR(expr)                 \
  do {                                      \
    cudaError_t err_ = (expr);              \
    if (err_ != cudaSuccess) return err_;   \
  } while (0)

class BadCapture {
 public:
  BadCapture() { cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }
  ~BadCapture() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaStreamDestroy(stream_);
  }
  BadCapture(const BadCapture &) = delete;
  BadCapture &operator=(const BadCapture &) = delete;

  cudaError_t capture(const float *logits, int *ids, int n) {
    if (exec_) return cudaSuccess;
    RETURN_IF_ERR(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal)); // EXPECT: cudagraph-capture-without-destroy
    sample<<<(n + 255) / 256, 256, 0, stream_>>>(logits, ids, n);
    RETURN_IF_ERR(cudaGetLastError());
    cudaGraph_t g = nullptr;
    RETURN_IF_ERR(cudaStreamEndCapture(stream_, &g));
    cudaError_t st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return st;
  }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class GoodCapture {
 public:
  GoodCapture() { cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }
  ~GoodCapture() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaStreamDestroy(stream_);
  }
  GoodCapture(const GoodCapture &) = delete;
  GoodCapture &operator=(const GoodCapture &) = delete;

  cudaError_t capture(const float *logits, int *ids, int n) {
    if (exec_) return cudaSuccess;
    RETURN_IF_ERR(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    sample<<<(n + 255) / 256, 256, 0, stream_>>>(logits, ids, n);
    cudaGraph_t g = nullptr;
    cudaError_t launch_err = cudaGetLastError();
    cudaError_t st = cudaStreamEndCapture(stream_, &g);
    if (launch_err != cudaSuccess || st != cudaSuccess) {
      if (g) cudaGraphDestroy(g);
      return launch_err != cudaSuccess ? launch_err : st;
    }
    st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return st;
  }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class SplitCapture {
 public:
  explicit SplitCapture(cudaStream_t s) : stream_(s) {}
  ~SplitCapture() { reset(); }
  SplitCapture(const SplitCapture &) = delete;
  SplitCapture &operator=(const SplitCapture &) = delete;

  cudaError_t capture_begin() {
    reset();
    return cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
  }

  cudaError_t capture_end() {
    RETURN_IF_ERR(cudaStreamEndCapture(stream_, &graph_));
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, stream_); }

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int run(cudaStream_t s, const float *logits, int *ids, int n) {
  BadCapture bad;
  GoodCapture good;
  if (bad.capture(logits, ids, n) != cudaSuccess) std::fprintf(stderr, "bad capture failed\n");
  if (good.capture(logits, ids, n) != cudaSuccess) return 1;
  SplitCapture split(s);
  if (split.capture_begin() != cudaSuccess) return 2;
  sample<<<(n + 255) / 256, 256, 0, s>>>(logits, ids, n);
  if (split.capture_end() != cudaSuccess) return 3;
  return split.replay() == cudaSuccess ? 0 : 4;
}
