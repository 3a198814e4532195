// RAII wrappers: unique_ptr with custom deleters, a move-only handle template,
// shared_ptr with a lambda deleter, and a vector of move-only streams.
#include <cuda_runtime.h>
#include <memory>
#include <vector>
#include <utility>
#include <stdexcept>
#include <type_traits>

struct CudaFreeDeleter { void operator()(void *p) const noexcept { cudaFree(p); } };
struct PinnedDeleter { void operator()(void *p) const noexcept { cudaFreeHost(p); } };
template <typename T> using device_ptr = std::unique_ptr<T, CudaFreeDeleter>;
template <typename T> using pinned_ptr = std::unique_ptr<T, PinnedDeleter>;

template <typename T>
device_ptr<T> make_device(size_t n) {
  void *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(T)) != cudaSuccess) throw std::bad_alloc();
  return device_ptr<T>(static_cast<T *>(p));
}

template <typename T>
pinned_ptr<T> make_pinned(size_t n) {
  void *p = nullptr;
  if (cudaMallocHost(&p, n * sizeof(T)) != cudaSuccess) throw std::bad_alloc();
  return pinned_ptr<T>(static_cast<T *>(p));
}

template <typename H, cudaError_t (*Destroy)(H)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(H h) : h_(h) {}
  ~Handle() { reset(); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle &operator=(Handle &&o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  void reset() {
    if (h_) {
      Destroy(h_);
      h_ = nullptr;
    }
  }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};

using Stream = Handle<cudaStream_t, cudaStreamDestroy>;
using Event = Handle<cudaEvent_t, cudaEventDestroy>;

static Stream make_stream() {
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) throw std::runtime_error("stream");
  return Stream(s);
}

static Event make_event() {
  cudaEvent_t e;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) throw std::runtime_error("event");
  return Event(e);
}

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

static std::shared_ptr<float> shared_device_buffer(size_t n) {
  float *raw = nullptr;
  if (cudaMalloc(&raw, n * sizeof(float)) != cudaSuccess) return nullptr;
  return std::shared_ptr<float>(raw, [](float *p) { cudaFree(p); });
}

int main() {
  try {
    const int n = 1 << 20;
    std::vector<Stream> streams;
    for (int i = 0; i < 4; ++i) streams.push_back(make_stream());
    Event joined = make_event();
    auto x = make_device<float>(n);
    auto y = make_device<float>(n);
    auto h = make_pinned<float>(n);
    std::shared_ptr<float> scratch = shared_device_buffer(n);
    if (!scratch) return 1;
    std::shared_ptr<float> alias = scratch;

    int chunk = n / 4;
    for (int i = 0; i < 4; ++i) {
      cudaStream_t s = streams[i].get();
      saxpy<<<(chunk + 255) / 256, 256, 0, s>>>(2.f, x.get() + i * chunk, y.get() + i * chunk, chunk);
      cudaMemcpyAsync(alias.get() + i * chunk, y.get() + i * chunk, chunk * sizeof(float),
                      cudaMemcpyDeviceToDevice, s);
      cudaEventRecord(joined.get(), s);
      cudaStreamWaitEvent(streams[0].get(), joined.get(), 0);
    }
    cudaMemcpyAsync(h.get(), scratch.get(), n * sizeof(float), cudaMemcpyDeviceToHost, streams[0].get());
    cudaStreamSynchronize(streams[0].get());

    Stream moved = std::move(streams.back());
    streams.pop_back();
    moved.reset();
    streams.erase(streams.begin());
    return h.get()[0] > 0.f ? 0 : 2;
  } catch (const std::exception &) {
    return 1;
  }
}
