// TensorRT-LLM-style CudaStream / CudaEvent wrappers that may own or borrow
// their handle: a move transfers ownership by clearing the source's
// `owns_` flag; the destructor destroys only what it owns. Kept in vectors.
#include <cuda_runtime.h>
#include <vector>
#include <utility>
#include <stdexcept>

class CudaStream {
 public:
  explicit CudaStream(unsigned flags = cudaStreamNonBlocking, int priority = 0) : owns_(true) {
    if (cudaStreamCreateWithPriority(&stream_, flags, priority) != cudaSuccess)
      throw std::runtime_error("cudaStreamCreateWithPriority");
  }
  // Wrap an existing stream without taking ownership.
  explicit CudaStream(cudaStream_t borrowed) : stream_(borrowed), owns_(false) {}

  CudaStream(CudaStream &&o) noexcept : stream_(o.stream_), owns_(o.owns_) { o.owns_ = false; }
  CudaStream &operator=(CudaStream &&o) noexcept {
    if (this != &o) {
      if (owns_) cudaStreamDestroy(stream_);
      stream_ = o.stream_;
      owns_ = o.owns_;
      o.owns_ = false;
    }
    return *this;
  }
  CudaStream(const CudaStream &) = delete;
  CudaStream &operator=(const CudaStream &) = delete;
  ~CudaStream() {
    if (owns_) cudaStreamDestroy(stream_);
  }

  cudaStream_t get() const { return stream_; }
  void synchronize() const { cudaStreamSynchronize(stream_); }

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_ = false;
};

class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDisableTiming) : owns_(true) {
    if (cudaEventCreateWithFlags(&event_, flags) != cudaSuccess) throw std::runtime_error("cudaEventCreate");
  }
  CudaEvent(CudaEvent &&o) noexcept : event_(o.event_), owns_(o.owns_) { o.owns_ = false; }
  CudaEvent(const CudaEvent &) = delete;
  ~CudaEvent() {
    if (owns_) cudaEventDestroy(event_);
  }
  void record(const CudaStream &s) { cudaEventRecord(event_, s.get()); }
  void wait_on(const CudaStream &s) const { cudaStreamWaitEvent(s.get(), event_, 0); }

 private:
  cudaEvent_t event_ = nullptr;
  bool owns_ = false;
};

__global__ void work(float *x, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v;
}

int main() {
  const int n = 1 << 14, parts = 4;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) return 1;
  try {
    std::vector<CudaStream> streams;
    std::vector<CudaEvent> events;
    for (int i = 0; i < parts; ++i) {
      streams.emplace_back();  // vector growth moves the earlier elements
      events.emplace_back();
    }
    CudaStream legacy(cudaStreamLegacy);  // borrowed
    cudaMemsetAsync(x, 0, n * sizeof(float), legacy.get());
    CudaEvent start;
    start.record(legacy);
    int chunk = n / parts;
    for (int i = 0; i < parts; ++i) {
      start.wait_on(streams[i]);
      work<<<(chunk + 255) / 256, 256, 0, streams[i].get()>>>(x + i * chunk, chunk, 1.f);
      events[i].record(streams[i]);
      events[i].wait_on(legacy);
    }
    legacy.synchronize();
    CudaStream spare = std::move(streams.back());
    streams.pop_back();
    spare.synchronize();
  } catch (const std::exception &) {
    cudaFree(x);
    return 1;
  }
  cudaFree(x);
  return 0;
}
