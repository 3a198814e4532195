// Inference runtime: RAII device buffers with unique_ptr custom deleters,
// shared_ptr lambda deleters and release() handing ownership to a C API.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

__global__ void scale_kernel(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

struct CudaFreeDeleter {
  void operator()(void *p) const noexcept {
    if (p) cudaFree(p);
  }
};
struct StreamDeleter {
  void operator()(CUstream_st *s) const noexcept {
    if (s) cudaStreamDestroy(s);
  }
};
struct EventDeleter {
  void operator()(CUevent_st *e) const noexcept { cudaEventDestroy(e); }
};

template <typename T>
using device_ptr = std::unique_ptr<T, CudaFreeDeleter>;
using stream_ptr = std::unique_ptr<CUstream_st, StreamDeleter>;
using event_ptr = std::unique_ptr<CUevent_st, EventDeleter>;

template <typename T>
device_ptr<T> make_device(size_t n) {
  T *raw = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&raw), n * sizeof(T)) != cudaSuccess)
    return device_ptr<T>(nullptr);
  return device_ptr<T>(raw);
}

static stream_ptr make_stream() {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return stream_ptr();
  return stream_ptr(s);
}

static event_ptr make_event() {
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return event_ptr();
  return event_ptr(e);
}

// C-style consumer that takes ownership of a device buffer.
struct TensorC {
  float *data;
  int n;
};
static void tensor_c_free(TensorC *t) {
  if (t && t->data) {
    cudaFree(t->data);
    t->data = nullptr;
  }
}

static std::shared_ptr<float> make_shared_pinned(size_t n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess) return nullptr;
  return std::shared_ptr<float>(h, [](float *p) { cudaFreeHost(p); });
}

int main() {
  const int n = 1 << 16;
  auto stream = make_stream();
  auto done = make_event();
  if (!stream || !done) {
    std::fprintf(stderr, "setup failed\n");
    return 1;
  }
  auto buf = make_device<float>(n);
  if (!buf) return 1;
  auto host = make_shared_pinned(n);
  if (!host) return 1;
  std::vector<std::shared_ptr<float>> readers{host, host};

  for (int i = 0; i < n; ++i) host.get()[i] = 1.0f;
  cudaMemcpyAsync(buf.get(), host.get(), n * sizeof(float), cudaMemcpyHostToDevice, stream.get());
  scale_kernel<<<(n + 255) / 256, 256, 0, stream.get()>>>(buf.get(), 2.0f, n);
  cudaMemcpyAsync(host.get(), buf.get(), n * sizeof(float), cudaMemcpyDeviceToHost, stream.get());
  cudaEventRecord(done.get(), stream.get());
  cudaEventSynchronize(done.get());
  std::printf("%f\n", readers[1].get()[7]);

  // Hand the buffer to the C API: release() transfers ownership.
  TensorC t{buf.release(), n};
  scale_kernel<<<(n + 255) / 256, 256, 0, stream.get()>>>(t.data, 0.5f, n);
  cudaStreamSynchronize(stream.get());
  tensor_c_free(&t);
  return 0;
}
