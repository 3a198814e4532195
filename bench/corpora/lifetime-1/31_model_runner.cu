// A compact model runner in the style of an LLM serving engine: capture once
// per batch size, replay with padded inputs, update on weight reload.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <vector>

#define RUNNER_CHECK(x)                                                        \
  do {                                                                         \
    cudaError_t err_ = (x);                                                    \
    if (err_ != cudaSuccess)                                                   \
      throw std::runtime_error(cudaGetErrorString(err_));                      \
  } while (0)

__global__ void forward_kernel(const int *ids, float *out, int bs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bs)
    out[i] = static_cast<float>(ids[i]);
}

struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

class ModelRunner {
public:
  ModelRunner(int *ids, float *out, cudaStream_t s) : ids_(ids), out_(out), stream_(s) {}
  ~ModelRunner() { release_all(); }

  void release_all() {
    for (auto &kv : graphs_) {
      if (kv.second.exec)
        cudaGraphExecDestroy(kv.second.exec);
      if (kv.second.graph)
        cudaGraphDestroy(kv.second.graph);
    }
    graphs_.clear();
  }

  // Correct: capture into the map entry.
  void capture(int bs) {
    CapturedGraph &cg = graphs_[bs];
    RUNNER_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    forward_kernel<<<(bs + 127) / 128, 128, 0, stream_>>>(ids_, out_, bs);
    RUNNER_CHECK(cudaStreamEndCapture(stream_, &cg.graph));
    RUNNER_CHECK(cudaGraphInstantiate(&cg.exec, cg.graph, 0));
  }

  // Correct: replays the smallest bucket that fits.
  bool replay(int bs) {
    auto it = graphs_.lower_bound(bs);
    if (it == graphs_.end())
      return false;
    RUNNER_CHECK(cudaGraphLaunch(it->second.exec, stream_));
    return true;
  }

  // Correct: after a weight reload each bucket is re-instantiated from the
  // recaptured graph and the previous exec is destroyed afterwards.
  void reload_weights() {
    for (auto &kv : graphs_) {
      CapturedGraph &cg = kv.second;
      cudaGraph_t fresh;
      RUNNER_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
      forward_kernel<<<(kv.first + 127) / 128, 128, 0, stream_>>>(ids_, out_, kv.first);
      RUNNER_CHECK(cudaStreamEndCapture(stream_, &fresh));
      cudaGraphDestroy(cg.graph);
      cg.graph = fresh;
      cudaGraphExec_t old = cg.exec;
      RUNNER_CHECK(cudaGraphInstantiate(&cg.exec, fresh, 0));
      if (old)
        cudaGraphExecDestroy(old);
    }
  }

  // Correct: one-shot profiling run for a bucket not in the cache.
  float profile(int bs) {
    cudaGraph_t g;
    RUNNER_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    forward_kernel<<<(bs + 127) / 128, 128, 0, stream_>>>(ids_, out_, bs);
    RUNNER_CHECK(cudaStreamEndCapture(stream_, &g));
    cudaGraphExec_t e;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    RUNNER_CHECK(st);
    cudaEvent_t a, b;
    RUNNER_CHECK(cudaEventCreate(&a));
    RUNNER_CHECK(cudaEventCreate(&b));
    cudaEventRecord(a, stream_);
    cudaGraphLaunch(e, stream_);
    cudaEventRecord(b, stream_);
    cudaEventSynchronize(b);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaGraphExecDestroy(e);
    return ms;
  }

  // Buggy: a failed capture-size probe returns a sentinel and forgets the exec.
  int probe_max_batch(const std::vector<int> &candidates) {
    int best = 0;
    for (int bs : candidates) {
      cudaGraph_t g;
      if (cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
        return best;
      forward_kernel<<<(bs + 127) / 128, 128, 0, stream_>>>(ids_, out_, bs);
      if (cudaStreamEndCapture(stream_, &g) != cudaSuccess)
        return best;
      cudaGraphExec_t e;
      cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      if (st != cudaSuccess)
        return best;
      if (cudaGraphLaunch(e, stream_) != cudaSuccess || cudaStreamSynchronize(stream_) != cudaSuccess)
        return best;
      cudaGraphExecDestroy(e);
      best = std::max(best, bs);
    }
    return best;
  }

private:
  int *ids_;
  float *out_;
  cudaStream_t stream_;
  std::map<int, CapturedGraph> graphs_;
};
