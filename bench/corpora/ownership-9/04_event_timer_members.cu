// Kernel timers used by a training loop's profiler. Each owns a start and a
// stop event created in its constructor. The first destructor forgets the stop
// event; the second is the fixed timer.
#include <cuda_runtime.h>
#include <cstdio>

class LayerTimer {
 public:
  explicit LayerTimer(cudaStream_t s) : stream_(s) {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_); // EXPECT: cudagraph-handle-leak
  }
  ~LayerTimer() { cudaEventDestroy(start_); }
  LayerTimer(const LayerTimer &) = delete;
  LayerTimer &operator=(const LayerTimer &) = delete;

  void begin() { cudaEventRecord(start_, stream_); }
  void end() { cudaEventRecord(stop_, stream_); }
  float elapsed_ms() {
    float ms = 0.f;
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

class StepTimer {
 public:
  explicit StepTimer(cudaStream_t s) : stream_(s) {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~StepTimer() {
    cudaEventDestroy(stop_);
    cudaEventDestroy(start_);
  }
  StepTimer(const StepTimer &) = delete;
  StepTimer &operator=(const StepTimer &) = delete;

  void begin() { cudaEventRecord(start_, stream_); }
  void end() { cudaEventRecord(stop_, stream_); }
  float elapsed_ms() {
    float ms = 0.f;
    if (cudaEventSynchronize(stop_) != cudaSuccess) return -1.f;
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

void profile_layers(cudaStream_t s, int layers) {
  StepTimer step(s);
  step.begin();
  for (int l = 0; l < layers; ++l) {
    LayerTimer t(s);
    t.begin();
    t.end();
    std::printf("layer %d: %.3f ms\n", l, t.elapsed_ms());
  }
  step.end();
  std::printf("step: %.3f ms\n", step.elapsed_ms());
}
