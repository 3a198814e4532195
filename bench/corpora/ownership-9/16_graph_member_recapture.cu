// A speculative-decoding draft runner re-captures its graph whenever the draft
// length changes. The graph member is destroyed in the destructor, but
// capture() overwrites it without destroying the previous one. The exec is
// handled correctly (destroyed before re-instantiation). VerifyRunner is the
// fixed twin, which frees the old graph right after a successful capture.
#include <cuda_runtime.h>

__global__ void draft_step(float *tok, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tok[i] += (float)k;
}

class DraftRunner {
 public:
  explicit DraftRunner(cudaStream_t s) : stream_(s) {}
  ~DraftRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  DraftRunner(const DraftRunner &) = delete;
  DraftRunner &operator=(const DraftRunner &) = delete;

  cudaError_t capture(float *tok, int n, int draft_len) {
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    for (int k = 0; k < draft_len; ++k) draft_step<<<(n + 127) / 128, 128, 0, stream_>>>(tok, n, k);
    st = cudaStreamEndCapture(stream_, &graph_); // EXPECT: cudagraph-capture-without-destroy
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    st = cudaGraphInstantiate(&exec_, graph_, 0);
    draft_len_ = draft_len;
    return st;
  }

  cudaError_t step(float *tok, int n, int draft_len) {
    if (draft_len != draft_len_) {
      cudaError_t st = capture(tok, n, draft_len);
      if (st != cudaSuccess) return st;
    }
    return cudaGraphLaunch(exec_, stream_);
  }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  int draft_len_ = -1;
};

class VerifyRunner {
 public:
  explicit VerifyRunner(cudaStream_t s) : stream_(s) {}
  ~VerifyRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  VerifyRunner(const VerifyRunner &) = delete;
  VerifyRunner &operator=(const VerifyRunner &) = delete;

  cudaError_t capture(float *tok, int n, int draft_len) {
    cudaGraph_t fresh = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    for (int k = 0; k <= draft_len; ++k) draft_step<<<(n + 127) / 128, 128, 0, stream_>>>(tok, n, k);
    st = cudaStreamEndCapture(stream_, &fresh);
    if (st != cudaSuccess) return st;
    if (graph_) cudaGraphDestroy(graph_);
    graph_ = fresh;
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t launch() { return exec_ ? cudaGraphLaunch(exec_, stream_) : cudaErrorInvalidValue; }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int speculate(cudaStream_t s, float *tok, int n, const int *draft_lens, int rounds) {
  DraftRunner draft(s);
  VerifyRunner verify(s);
  for (int r = 0; r < rounds; ++r) {
    if (draft.step(tok, n, draft_lens[r]) != cudaSuccess) return 1;
    if (verify.capture(tok, n, draft_lens[r]) != cudaSuccess) return 2;
    verify.launch();
  }
  return 0;
}
