// PLANTED: cudagraph-unpaired-instantiate line 60
// Decode-step CUDA graph cache keyed by (batch, seq bucket). When the weights are
// re-bound (LoRA swap) cached entries become stale and are rebuilt in place.
#include <cuda_runtime.h>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#define CUDA_CHECK(x)                                                           \
  do {                                                                          \
    cudaError_t err_ = (x);                                                     \
    if (err_ != cudaSuccess)                                                    \
      throw std::runtime_error(std::string(#x) + ": " + cudaGetErrorString(err_)); \
  } while (0)

struct ShapeKey {
  int batch;
  int seq_bucket;
  bool operator==(const ShapeKey& o) const { return batch == o.batch && seq_bucket == o.seq_bucket; }
};

struct ShapeKeyHash {
  size_t operator()(const ShapeKey& k) const {
    return std::hash<int64_t>()((int64_t(k.batch) << 32) | uint32_t(k.seq_bucket));
  }
};

__global__ void decode_step_kernel(const float* w, float* act, int batch, int seq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * seq) act[i] = act[i] * w[i % 1024];
}

class DecodeGraphCache {
 public:
  DecodeGraphCache(float* act, cudaStream_t stream) : act_(act), stream_(stream) {}

  ~DecodeGraphCache() {
    for (auto& kv : execs_) cudaGraphExecDestroy(kv.second);
  }

  void bind_weights(const float* w) {
    weights_ = w;
    ++weights_version_;
  }

  void run(const ShapeKey& key) {
    auto it = execs_.find(key);
    if (it != execs_.end() && versions_[key] == weights_version_) {
      CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
      return;
    }
    cudaGraph_t graph = capture(key);
    if (it != execs_.end()) {
      // Stale entry: the captured kernel args point at the old weights.
#ifndef BUGGY
      cudaGraphExecDestroy(it->second);
#endif
      cudaError_t st = cudaGraphInstantiate(&it->second, graph, 0);
      cudaGraphDestroy(graph);
      if (st != cudaSuccess) {
        execs_.erase(it);
        versions_.erase(key);
        CUDA_CHECK(st);
      }
    } else {
      cudaGraphExec_t exec;
      cudaError_t st = cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      CUDA_CHECK(st);
      it = execs_.emplace(key, exec).first;
    }
    versions_[key] = weights_version_;
    CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
  }

 private:
  cudaGraph_t capture(const ShapeKey& key) {
    cudaGraph_t graph = nullptr;
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    int n = key.batch * key.seq_bucket;
    decode_step_kernel<<<(n + 255) / 256, 256, 0, stream_>>>(weights_, act_, key.batch,
                                                             key.seq_bucket);
    CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    return graph;
  }

  const float* weights_ = nullptr;
  float* act_;
  cudaStream_t stream_;
  uint64_t weights_version_ = 0;
  std::unordered_map<ShapeKey, cudaGraphExec_t, ShapeKeyHash> execs_;
  std::unordered_map<ShapeKey, uint64_t, ShapeKeyHash> versions_;
};
