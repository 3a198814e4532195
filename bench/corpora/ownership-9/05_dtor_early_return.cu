// Stream-bound executors that may run on a borrowed stream (the caller's) or on
// one they create. The destructors skip the stream destroy for a borrowed
// stream; two of them return early and skip more than that.
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

// The exec is instantiated whether or not the stream is borrowed, but the
// destructor returns before destroying it when the stream is borrowed.
class BorrowingExecutor {
 public:
  explicit BorrowingExecutor(cudaStream_t borrowed) : stream_(borrowed), owns_stream_(borrowed == nullptr) {
    if (owns_stream_) cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  }
  ~BorrowingExecutor() {
    if (!owns_stream_) return;
    cudaStreamDestroy(stream_);
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  BorrowingExecutor(const BorrowingExecutor &) = delete;
  BorrowingExecutor &operator=(const BorrowingExecutor &) = delete;

  cudaError_t build(float *x, int n) {
    if (exec_) return cudaSuccess;
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    scale<<<(n + 255) / 256, 256, 0, stream_>>>(x, 2.f, n);
    if ((st = cudaStreamEndCapture(stream_, &g)) != cudaSuccess) return st;
    st = cudaGraphInstantiate(&exec_, g, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    return st;
  }
  cudaError_t run() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_;
  cudaGraphExec_t exec_ = nullptr;
};

// Same shape with a completion event: created whatever the ownership,
// destroyed only after the early return taken for a borrowed stream.
class CompletionTracker {
 public:
  CompletionTracker(cudaStream_t borrowed, bool own) : stream_(borrowed), owns_stream_(own) {
    if (owns_stream_) cudaStreamCreate(&stream_);
    cudaEventCreateWithFlags(&done_, cudaEventDisableTiming); // EXPECT: cudagraph-handle-leak
  }
  ~CompletionTracker() {
    if (!owns_stream_) return;
    cudaStreamDestroy(stream_);
    cudaEventDestroy(done_);
  }
  CompletionTracker(const CompletionTracker &) = delete;
  CompletionTracker &operator=(const CompletionTracker &) = delete;

  void mark() { cudaEventRecord(done_, stream_); }
  bool done() const { return cudaEventQuery(done_) == cudaSuccess; }

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_;
  cudaEvent_t done_ = nullptr;
};

// Fixed: everything that is always owned is released before the early return.
class Tracker {
 public:
  Tracker(cudaStream_t borrowed, bool own) : stream_(borrowed), owns_stream_(own) {
    if (owns_stream_) cudaStreamCreate(&stream_);
    cudaEventCreateWithFlags(&done_, cudaEventDisableTiming);
  }
  ~Tracker() {
    cudaEventDestroy(done_);
    if (exec_) cudaGraphExecDestroy(exec_);
    if (!owns_stream_) return;
    cudaStreamDestroy(stream_);
  }
  Tracker(const Tracker &) = delete;
  Tracker &operator=(const Tracker &) = delete;

  cudaError_t build(float *x, int n) {
    if (exec_) return cudaSuccess;
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    scale<<<(n + 255) / 256, 256, 0, stream_>>>(x, 0.5f, n);
    if ((st = cudaStreamEndCapture(stream_, &g)) != cudaSuccess) return st;
    st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return st;
  }
  void mark() {
    if (exec_) cudaGraphLaunch(exec_, stream_);
    cudaEventRecord(done_, stream_);
  }

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_;
  cudaEvent_t done_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

void run_all(cudaStream_t user, float *x, int n) {
  BorrowingExecutor a(user);
  a.build(x, n);
  a.run();
  CompletionTracker b(user, false);
  b.mark();
  Tracker c(user, false);
  c.build(x, n);
  c.mark();
}
