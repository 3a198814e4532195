// PLANTED: cudagraph-handle-leak line 25
// Per-layer profiler of a transformer runtime: each ProfiledStage owns a stream
// and a pair of timing events, and accumulates the time spent in its kernels.
#include <cuda_runtime.h>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#define PROF_CHECK(x)                                                          \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "profiler: %s (%s:%d)\n", cudaGetErrorString(e_),   \
                   __FILE__, __LINE__);                                        \
    }                                                                          \
  } while (0)

class ProfiledStage {
 public:
  explicit ProfiledStage(std::string name, int priority = 0)
      : name_(std::move(name)) {
    PROF_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
    PROF_CHECK(cudaEventCreate(&start_));  // PLANTED (buggy variant): cudagraph-handle-leak
    PROF_CHECK(cudaEventCreate(&stop_));
  }

  ~ProfiledStage() {
    cudaStreamSynchronize(stream_);
    cudaEventDestroy(stop_);
#ifndef BUGGY
    cudaEventDestroy(start_);
#endif
    cudaStreamDestroy(stream_);
  }

  ProfiledStage(const ProfiledStage &) = delete;
  ProfiledStage &operator=(const ProfiledStage &) = delete;

  cudaStream_t stream() const { return stream_; }
  const std::string &name() const { return name_; }

  template <typename Fn>
  void run(Fn &&enqueue) {
    PROF_CHECK(cudaEventRecord(start_, stream_));
    enqueue(stream_);
    PROF_CHECK(cudaEventRecord(stop_, stream_));
    pending_ = true;
  }

  float collect() {
    if (!pending_) return 0.f;
    float ms = 0.f;
    PROF_CHECK(cudaEventSynchronize(stop_));
    PROF_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    total_ms_ += ms;
    ++calls_;
    pending_ = false;
    return ms;
  }

  double mean_ms() const { return calls_ ? total_ms_ / calls_ : 0.0; }

 private:
  std::string name_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  double total_ms_ = 0.0;
  long calls_ = 0;
  bool pending_ = false;
};

__global__ void rmsnorm(float *x, int n, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] / sqrtf(x[i] * x[i] + eps);
}

class LayerProfiler {
 public:
  ProfiledStage &stage(const std::string &name) {
    auto it = stages_.find(name);
    if (it == stages_.end())
      it = stages_.emplace(name, std::make_unique<ProfiledStage>(name)).first;
    return *it->second;
  }

  void report() const {
    for (const auto &kv : stages_)
      std::printf("%-24s %8.3f ms\n", kv.first.c_str(), kv.second->mean_ms());
  }

 private:
  std::unordered_map<std::string, std::unique_ptr<ProfiledStage>> stages_;
};

void profile_norms(float *x, int n, int iters) {
  LayerProfiler prof;
  for (int i = 0; i < iters; ++i) {
    ProfiledStage &st = prof.stage("rmsnorm");
    st.run([&](cudaStream_t s) { rmsnorm<<<(n + 255) / 256, 256, 0, s>>>(x, n, 1e-6f); });
    st.collect();
  }
  prof.report();
}
