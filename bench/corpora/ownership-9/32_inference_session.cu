// An inference session of an engine runtime (TensorRT-LLM executor-like):
// init() sets up the stream, the I/O buffers and optional profiling events;
// reconfigure() re-runs init() when the engine profile changes; capture()
// records the enqueue into a graph kept for in-place updates. Bugs: init()
// creates the stream without releasing the one a previous init() made, the
// kept graph is overwritten by a second capture(), and capture() clears the
// output with a synchronous cudaMemset while capturing. The profiling events
// are created and destroyed under the same member flag (correct), and the
// buffers are released before reallocation (correct).
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>
#include <string>

__global__ void engine_enqueue(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.f;
}

struct SessionOptions {
  int max_batch = 16;
  int io_elems = 1 << 16;
  bool profile = false;
  bool use_graph = true;
  bool low_latency = false;
  bool zero_output = true;
  int stream_priority = 0;
  std::string name = "session";
};

class InferenceSession {
 public:
  InferenceSession() = default;
  ~InferenceSession() { teardown(); }
  InferenceSession(const InferenceSession &) = delete;
  InferenceSession &operator=(const InferenceSession &) = delete;

  cudaError_t init(const SessionOptions &o) {
    opts_ = o;
    int prio = o.low_latency ? -1 : o.stream_priority;
    cudaError_t st = cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, prio); // EXPECT: cudagraph-handle-leak
    if (st != cudaSuccess) return st;
    size_t bytes = (size_t)o.max_batch * o.io_elems * sizeof(float);
    cudaFree(d_in_);
    cudaFree(d_out_);
    d_in_ = nullptr;
    d_out_ = nullptr;
    if ((st = cudaMalloc(&d_in_, bytes)) != cudaSuccess) return st;
    if ((st = cudaMalloc(&d_out_, bytes)) != cudaSuccess) return st;
    if (o.profile && !profiling_) {
      if ((st = cudaEventCreate(&ev_start_)) != cudaSuccess) return st;
      if ((st = cudaEventCreate(&ev_stop_)) != cudaSuccess) {
        cudaEventDestroy(ev_start_);
        ev_start_ = nullptr;
        return st;
      }
      profiling_ = true;
    }
    return cudaSuccess;
  }

  cudaError_t reconfigure(const SessionOptions &o) {
    cudaError_t st = cudaStreamSynchronize(stream_);
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return init(o);
  }

  cudaError_t capture(int batch) {
    int n = batch * opts_.io_elems;
    cudaError_t st = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    if (opts_.zero_output) cudaMemset(d_out_, 0, (size_t)n * sizeof(float)); // EXPECT: cudagraph-capture-unsafe-call
    engine_enqueue<<<(n + 255) / 256, 256, 0, stream_>>>(d_in_, d_out_, n);
    st = cudaStreamEndCapture(stream_, &graph_); // EXPECT: cudagraph-capture-without-destroy
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, graph_, &info) == cudaSuccess) return cudaSuccess;
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    return cudaGraphInstantiate(&exec_, graph_, 0);
  }

  cudaError_t infer(int batch, float *ms) {
    if (profiling_) cudaEventRecord(ev_start_, stream_);
    cudaError_t st;
    if (opts_.use_graph && exec_) {
      st = cudaGraphLaunch(exec_, stream_);
    } else {
      int n = batch * opts_.io_elems;
      if (opts_.zero_output) cudaMemsetAsync(d_out_, 0, (size_t)n * sizeof(float), stream_);
      engine_enqueue<<<(n + 255) / 256, 256, 0, stream_>>>(d_in_, d_out_, n);
      st = cudaGetLastError();
    }
    if (st != cudaSuccess) return st;
    if (profiling_) {
      cudaEventRecord(ev_stop_, stream_);
      cudaEventSynchronize(ev_stop_);
      cudaEventElapsedTime(ms, ev_start_, ev_stop_);
    }
    return cudaSuccess;
  }

 private:
  void teardown() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (profiling_) {
      cudaEventDestroy(ev_start_);
      cudaEventDestroy(ev_stop_);
    }
    cudaFree(d_in_);
    cudaFree(d_out_);
    if (stream_) cudaStreamDestroy(stream_);
    exec_ = nullptr;
    graph_ = nullptr;
    stream_ = nullptr;
  }

  SessionOptions opts_;
  cudaStream_t stream_ = nullptr;
  float *d_in_ = nullptr;
  float *d_out_ = nullptr;
  cudaEvent_t ev_start_ = nullptr;
  cudaEvent_t ev_stop_ = nullptr;
  bool profiling_ = false;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int serve_requests(const SessionOptions &base, const int *batches, int nreq, int reconfigure_at) {
  InferenceSession sess;
  if (sess.init(base) != cudaSuccess) return 1;
  int last_batch = -1;
  for (int r = 0; r < nreq; ++r) {
    if (r == reconfigure_at) {
      SessionOptions next = base;
      next.max_batch *= 2;
      next.profile = true;
      if (sess.reconfigure(next) != cudaSuccess) return 2;
      last_batch = -1;
    }
    if (base.use_graph && batches[r] != last_batch) {
      if (sess.capture(batches[r]) != cudaSuccess) return 3;
      last_batch = batches[r];
    }
    float ms = 0.f;
    if (sess.infer(batches[r], &ms) != cudaSuccess) return 4;
    if (base.profile) std::printf("%s req %d: %.3f ms\n", base.name.c_str(), r, ms);
  }
  return 0;
}
