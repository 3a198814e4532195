// Generic ScopeGuard / defer lambda; guards dismissed when ownership moves
// into the returned object on success.
#include <cuda_runtime.h>
#include <cstdio>
#include <utility>

template <typename F>
class ScopeGuard {
 public:
  explicit ScopeGuard(F f) : f_(std::move(f)), active_(true) {}
  ScopeGuard(ScopeGuard &&o) noexcept : f_(std::move(o.f_)), active_(o.active_) { o.active_ = false; }
  ~ScopeGuard() {
    if (active_) f_();
  }
  void dismiss() { active_ = false; }
  ScopeGuard(const ScopeGuard &) = delete;
  ScopeGuard &operator=(const ScopeGuard &) = delete;

 private:
  F f_;
  bool active_;
};
template <typename F>
ScopeGuard<F> make_guard(F f) { return ScopeGuard<F>(std::move(f)); }

#define DEFER_CAT2(a, b) a##b
#define DEFER_CAT(a, b) DEFER_CAT2(a, b)
#define DEFER(code) auto DEFER_CAT(defer_, __LINE__) = make_guard([&]() { code; })

__global__ void layernorm(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f;
}

struct Pipeline {
  cudaStream_t stream;
  cudaEvent_t ready;
  float *activations;
};

static bool pipeline_create(Pipeline *out, int n) {
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return false;
  auto g_stream = make_guard([&] { cudaStreamDestroy(s); });

  cudaEvent_t e;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return false;
  auto g_event = make_guard([&] { cudaEventDestroy(e); });

  float *act;
  if (cudaMalloc(&act, n * sizeof(float)) != cudaSuccess) return false;

  g_event.dismiss();
  g_stream.dismiss();
  *out = Pipeline{s, e, act};
  return true;
}

static void pipeline_destroy(Pipeline &p) {
  cudaFree(p.activations);
  cudaEventDestroy(p.ready);
  cudaStreamDestroy(p.stream);
}

static int run_once(int n) {
  float *host = nullptr;
  if (cudaMallocHost(&host, n * sizeof(float)) != cudaSuccess) return -1;
  DEFER(cudaFreeHost(host));
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess) return -1;
  DEFER(cudaFree(dev));
  for (int i = 0; i < n; ++i) host[i] = float(i);
  if (cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) return -2;
  layernorm<<<(n + 255) / 256, 256>>>(dev, n);
  if (cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return -2;
  return host[n - 1] > 0.f ? 0 : -3;
}

int main() {
  Pipeline p;
  if (!pipeline_create(&p, 4096)) return 1;
  layernorm<<<16, 256, 0, p.stream>>>(p.activations, 4096);
  cudaEventRecord(p.ready, p.stream);
  cudaEventSynchronize(p.ready);
  pipeline_destroy(p);
  int rc = run_once(1 << 12);
  std::printf("rc=%d\n", rc);
  return rc == 0 ? 0 : 1;
}
