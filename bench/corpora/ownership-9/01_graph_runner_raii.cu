// Decode-step graph runner in the style of a serving runtime: the runner owns
// its stream, the captured graph and the exec; it is move-only and releases
// everything in the destructor. capture() may be called again when the batch
// shape changes, so it releases what a previous capture left first.
#include <cuda_runtime.h>
#include <cstdio>
#include <utility>

__global__ void decode_step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f;
}

class DecodeGraphRunner {
 public:
  explicit DecodeGraphRunner(int device) : device_(device) {
    cudaSetDevice(device_);
    cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  }
  ~DecodeGraphRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (stream_) cudaStreamDestroy(stream_);
  }
  DecodeGraphRunner(const DecodeGraphRunner &) = delete;
  DecodeGraphRunner &operator=(const DecodeGraphRunner &) = delete;
  DecodeGraphRunner(DecodeGraphRunner &&o) noexcept
      : device_(o.device_), stream_(std::exchange(o.stream_, nullptr)),
        graph_(std::exchange(o.graph_, nullptr)), exec_(std::exchange(o.exec_, nullptr)),
        batch_(o.batch_) {}
  DecodeGraphRunner &operator=(DecodeGraphRunner &&) = delete;

  cudaError_t capture(const float *in, float *out, int batch) {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    if (graph_) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    decode_step<<<(batch + 127) / 128, 128, 0, stream_>>>(in, out, batch);
    st = cudaStreamEndCapture(stream_, &graph_);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&exec_, graph_, 0);
    if (st != cudaSuccess) return st;
    batch_ = batch;
    return cudaSuccess;
  }

  cudaError_t replay() {
    if (!exec_) return cudaErrorInvalidResourceHandle;
    return cudaGraphLaunch(exec_, stream_);
  }

  cudaError_t sync() { return cudaStreamSynchronize(stream_); }
  int batch() const { return batch_; }

 private:
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  int batch_ = 0;
};

int serve_decode(const float *d_in, float *d_out, const int *batches, int nbatches) {
  DecodeGraphRunner runner(0);
  for (int b = 0; b < nbatches; ++b) {
    if (runner.batch() != batches[b] && runner.capture(d_in, d_out, batches[b]) != cudaSuccess) {
      std::fprintf(stderr, "capture failed for batch %d\n", batches[b]);
      return 1;
    }
    if (runner.replay() != cudaSuccess) return 2;
  }
  return runner.sync() == cudaSuccess ? 0 : 3;
}
