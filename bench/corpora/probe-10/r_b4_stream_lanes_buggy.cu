#define BUGGY
// PLANTED: cudagraph-handle-leak line 60
// Priority lanes of an inference scheduler: each lane owns a CUDA stream; idle lanes
// are retired when the request mix changes.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>
#include <map>
#include <stdexcept>

#define THROW_IF_CUDA(expr)                                                  \
  do {                                                                       \
    cudaError_t s_ = (expr);                                                 \
    if (s_ != cudaSuccess) throw std::runtime_error(cudaGetErrorString(s_)); \
  } while (0)

struct Lane {
  cudaStream_t stream;
  int priority;
  size_t inflight;
};

class LaneScheduler {
 public:
  LaneScheduler() {
    THROW_IF_CUDA(cudaDeviceGetStreamPriorityRange(&least_, &greatest_));
  }

  ~LaneScheduler() {
    for (auto& kv : lanes_) cudaStreamDestroy(kv.second.stream);
  }

  cudaStream_t acquire(int lane_id, bool high_priority) {
    auto it = lanes_.find(lane_id);
    if (it != lanes_.end()) {
      it->second.inflight++;
      return it->second.stream;
    }
    Lane lane{};
    lane.priority = high_priority ? greatest_ : least_;
    lane.inflight = 1;
    THROW_IF_CUDA(cudaStreamCreateWithPriority(&lane.stream, cudaStreamNonBlocking,
                                               lane.priority));
    lanes_.emplace(lane_id, lane);
    return lane.stream;
  }

  void release(int lane_id) {
    auto it = lanes_.find(lane_id);
    if (it != lanes_.end() && it->second.inflight > 0) it->second.inflight--;
  }

  // Drop lanes that have been idle; called by the scheduler between batches.
  void retire_idle(int lane_id) {
    auto it = lanes_.find(lane_id);
    if (it == lanes_.end() || it->second.inflight != 0) return;
    THROW_IF_CUDA(cudaStreamSynchronize(it->second.stream));
#ifndef BUGGY
    THROW_IF_CUDA(cudaStreamDestroy(it->second.stream));
#endif
    lanes_.erase(it);  // EXPECT: cudagraph-handle-leak
  }

  size_t lanes() const { return lanes_.size(); }

 private:
  int least_ = 0;
  int greatest_ = 0;
  std::map<int, Lane> lanes_;
};

__global__ void step(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }

void schedule(LaneScheduler& sched, float* x, int n, const int* lane_of_req, int reqs) {
  for (int r = 0; r < reqs; ++r) {
    cudaStream_t s = sched.acquire(lane_of_req[r], r % 4 == 0);
    step<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    sched.release(lane_of_req[r]);
    sched.retire_idle(lane_of_req[r]);
  }
}
