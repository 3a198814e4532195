// Members held in std::unique_ptr / std::shared_ptr with CUDA deleters: a
// worker keeps its stream, event, exec and buffers in smart pointers, so the
// implicit destructor releases them and copy is deleted by unique_ptr. A
// shared exec is handed to several replayers. rebuild() resets the unique_ptr
// (the deleter destroys the old exec). All correct.
#include <cuda_runtime.h>
#include <cstddef>
#include <memory>
#include <vector>

struct StreamDeleter {
  void operator()(CUstream_st *s) const { cudaStreamDestroy(s); }
};
struct EventDeleter {
  void operator()(CUevent_st *e) const { cudaEventDestroy(e); }
};
struct ExecDeleter {
  void operator()(CUgraphExec_st *e) const { cudaGraphExecDestroy(e); }
};
struct DeviceDeleter {
  void operator()(void *p) const { cudaFree(p); }
};
struct PinnedDeleter {
  void operator()(void *p) const { cudaFreeHost(p); }
};

using StreamPtr = std::unique_ptr<CUstream_st, StreamDeleter>;
using EventPtr = std::unique_ptr<CUevent_st, EventDeleter>;
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;
using DevicePtr = std::unique_ptr<void, DeviceDeleter>;
using PinnedPtr = std::unique_ptr<void, PinnedDeleter>;

__global__ void relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0.f) x[i] = 0.f;
}

static StreamPtr make_stream() {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return StreamPtr();
  return StreamPtr(s);
}

static EventPtr make_event() {
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return EventPtr();
  return EventPtr(e);
}

class Worker {
 public:
  explicit Worker(size_t n) : n_(n), stream_(make_stream()), done_(make_event()) {
    void *d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) == cudaSuccess) act_.reset(d);
    void *h = nullptr;
    if (cudaMallocHost(&h, n * sizeof(float)) == cudaSuccess) host_.reset(h);
  }

  cudaError_t rebuild() {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream_.get(), cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
    relu<<<((int)n_ + 255) / 256, 256, 0, stream_.get()>>>(static_cast<float *>(act_.get()), (int)n_);
    st = cudaStreamEndCapture(stream_.get(), &g);
    if (st != cudaSuccess) return st;
    cudaGraphExec_t e = nullptr;
    st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) return st;
    exec_.reset(e);
    return cudaSuccess;
  }

  cudaError_t run() {
    cudaError_t st = cudaGraphLaunch(exec_.get(), stream_.get());
    if (st != cudaSuccess) return st;
    cudaMemcpyAsync(host_.get(), act_.get(), n_ * sizeof(float), cudaMemcpyDeviceToHost, stream_.get());
    return cudaEventRecord(done_.get(), stream_.get());
  }

  std::shared_ptr<CUgraphExec_st> share() {
    ExecPtr e = std::move(exec_);
    return std::shared_ptr<CUgraphExec_st>(e.release(), ExecDeleter());
  }

  cudaStream_t stream() const { return stream_.get(); }

 private:
  size_t n_;
  StreamPtr stream_;
  EventPtr done_;
  ExecPtr exec_;
  DevicePtr act_;
  PinnedPtr host_;
};

int run_workers(int count, size_t n, int iters) {
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < count; ++i) {
    workers.push_back(std::make_unique<Worker>(n));
    if (workers.back()->rebuild() != cudaSuccess) return 1;
  }
  for (int it = 0; it < iters; ++it) {
    for (auto &w : workers) {
      if (w->run() != cudaSuccess) return 2;
      if (it % 10 == 9 && w->rebuild() != cudaSuccess) return 3;
    }
  }
  std::vector<std::shared_ptr<CUgraphExec_st>> shared;
  for (auto &w : workers) shared.push_back(w->share());
  for (size_t i = 0; i < shared.size(); ++i) cudaGraphLaunch(shared[i].get(), workers[i]->stream());
  for (auto &w : workers) cudaStreamSynchronize(w->stream());
  return 0;
}
