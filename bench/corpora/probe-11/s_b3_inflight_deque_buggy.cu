#define BUGGY
// PLANTED: cudagraph-handle-leak line 69
// Scheduler side of a continuous-batching engine: every submitted batch gets a
// completion event; finished batches are retired in submission order.
#include <cuda_runtime.h>
#include <cstdio>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t err = (expr);                                                  \
    if (err != cudaSuccess)                                                    \
      throw std::runtime_error(std::string("CUDA: ") + cudaGetErrorString(err)); \
  } while (0)

struct InflightBatch {
  cudaEvent_t done;
  int batch_id;
  int num_tokens;
};

__global__ void forward_stub(float *acts, int tokens) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tokens) acts[i] = acts[i] * 0.5f + 1.0f;
}

class BatchTracker {
 public:
  explicit BatchTracker(cudaStream_t stream) : stream_(stream) {}

  ~BatchTracker() {
    for (auto &b : inflight_) cudaEventDestroy(b.done);
    for (cudaEvent_t e : free_events_) cudaEventDestroy(e);
  }

  void submit(int batch_id, float *acts, int tokens) {
    InflightBatch b;
    b.batch_id = batch_id;
    b.num_tokens = tokens;
    b.done = acquire_event();
    inflight_.push_back(b);  // owned by the tracker from here on
    forward_stub<<<(tokens + 255) / 256, 256, 0, stream_>>>(acts, tokens);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(b.done, stream_));
  }

  // Returns how many batches finished since the last call.
  int retire_finished(std::vector<int> *finished_ids) {
    int n = 0;
    while (!inflight_.empty()) {
      InflightBatch &front = inflight_.front();
      cudaError_t q = cudaEventQuery(front.done);
      if (q == cudaErrorNotReady) break;
      CUDA_CHECK(q);
      finished_ids->push_back(front.batch_id);
      free_events_.push_back(front.done);
      inflight_.pop_front();
      ++n;
    }
    return n;
  }

  // Called when the engine aborts all requests (client disconnects, OOM).
  void abort_all() {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
#ifdef BUGGY
    inflight_.clear();  // EXPECT: cudagraph-handle-leak
#else
    for (auto &b : inflight_) free_events_.push_back(b.done);
    inflight_.clear();
#endif
  }

  size_t pending() const { return inflight_.size(); }

 private:
  cudaEvent_t acquire_event() {
    if (!free_events_.empty()) {
      cudaEvent_t e = free_events_.back();
      free_events_.pop_back();
      return e;
    }
    cudaEvent_t e;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
  }

  cudaStream_t stream_;
  std::deque<InflightBatch> inflight_;
  std::vector<cudaEvent_t> free_events_;
};

int engine_loop(float *acts, cudaStream_t stream, int iters) {
  try {
    BatchTracker tracker(stream);
    std::vector<int> done;
    for (int i = 0; i < iters; ++i) {
      tracker.submit(i, acts, 4096);
      tracker.retire_finished(&done);
      if (i == iters / 2 && done.empty()) tracker.abort_all();
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    tracker.retire_finished(&done);
    std::printf("retired %zu batches\n", done.size());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "engine: %s\n", e.what());
    return 1;
  }
  return 0;
}
