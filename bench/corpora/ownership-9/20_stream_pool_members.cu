// A stream pool for a multi-stream inference executor: the streams live in a
// std::vector member (created in the constructor, destroyed in the destructor),
// per-stream events in a second vector. enable_cross_sync() adds a barrier
// event that nothing ever destroys.
#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

class StreamPool {
 public:
  StreamPool(int n, int priority) {
    streams_.resize(n, nullptr);
    events_.resize(n, nullptr);
    for (int i = 0; i < n; ++i) {
      cudaStreamCreateWithPriority(&streams_[i], cudaStreamNonBlocking, priority);
      cudaEventCreateWithFlags(&events_[i], cudaEventDisableTiming);
    }
  }
  ~StreamPool() {
    for (size_t i = 0; i < streams_.size(); ++i) {
      if (events_[i]) cudaEventDestroy(events_[i]);
      if (streams_[i]) cudaStreamDestroy(streams_[i]);
    }
  }
  StreamPool(const StreamPool &) = delete;
  StreamPool &operator=(const StreamPool &) = delete;

  cudaStream_t next() {
    cudaStream_t s = streams_[cursor_];
    cursor_ = (cursor_ + 1) % streams_.size();
    return s;
  }

  void enable_cross_sync() {
    if (barrier_) return;
    cudaEventCreateWithFlags(&barrier_, cudaEventDisableTiming); // EXPECT: cudagraph-handle-leak
  }

  void join_into(cudaStream_t main) {
    for (size_t i = 0; i < streams_.size(); ++i) {
      cudaEventRecord(events_[i], streams_[i]);
      cudaStreamWaitEvent(main, events_[i], 0);
    }
    if (barrier_) {
      cudaEventRecord(barrier_, main);
      for (cudaStream_t s : streams_) cudaStreamWaitEvent(s, barrier_, 0);
    }
  }

 private:
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
  cudaEvent_t barrier_ = nullptr;
  size_t cursor_ = 0;
};

__global__ void work(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}

void execute(cudaStream_t main, float *x, int n, int tasks, bool cross_sync) {
  StreamPool pool(4, 0);
  if (cross_sync) pool.enable_cross_sync();
  for (int t = 0; t < tasks; ++t) work<<<(n + 255) / 256, 256, 0, pool.next()>>>(x, n);
  pool.join_into(main);
}
