// PLANTED: cudagraph-handle-leak line 54
// Per-iteration kernel timeline for a training loop: an event is recorded before each
// phase, elapsed times are read back at the end of the iteration and the marks are
// reset for the next one.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>
#include <vector>

#define CUDA_WARN(x)                                                          \
  do {                                                                        \
    cudaError_t e__ = (x);                                                    \
    if (e__ != cudaSuccess)                                                   \
      fprintf(stderr, "[timeline] %s: %s\n", #x, cudaGetErrorString(e__));    \
  } while (0)

class PhaseTimeline {
 public:
  explicit PhaseTimeline(cudaStream_t s) : stream_(s) {}

  ~PhaseTimeline() { reset(); }

  void mark(const char* phase) {
    cudaEvent_t ev;
    if (cudaEventCreate(&ev) != cudaSuccess) return;
    cudaEventRecord(ev, stream_);
    marks_.push_back(ev);
    names_.emplace_back(phase);
  }

  // Reads back all phase durations; needs the stream to be done.
  std::vector<float> collect() {
    std::vector<float> ms;
    if (marks_.size() < 2) return ms;
    CUDA_WARN(cudaEventSynchronize(marks_.back()));
    for (size_t i = 1; i < marks_.size(); ++i) {
      float t = 0.f;
      CUDA_WARN(cudaEventElapsedTime(&t, marks_[i - 1], marks_[i]));
      ms.push_back(t);
    }
    return ms;
  }

  void report(int iteration) {
    std::vector<float> ms = collect();
    for (size_t i = 0; i < ms.size(); ++i)
      printf("iter %d %-12s %8.3f ms\n", iteration, names_[i].c_str(), ms[i]);
  }

  void reset() {
#ifndef BUGGY
    for (cudaEvent_t ev : marks_) cudaEventDestroy(ev);
#endif
    marks_.clear();
    names_.clear();
  }

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> marks_;
  std::vector<std::string> names_;
};

__global__ void fwd(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.f; }
__global__ void bwd(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

void train(float* x, int n, int iters, cudaStream_t s) {
  PhaseTimeline tl(s);
  for (int it = 0; it < iters; ++it) {
    tl.mark("forward");
    fwd<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    tl.mark("backward");
    bwd<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    tl.mark("end");
    if (it % 10 == 0) tl.report(it);
    tl.reset();
  }
}
