#define BUGGY
// PLANTED: cudagraph-unpaired-instantiate line 92
// Decode-step CUDA graph cache for an LLM serving engine: one captured graph
// per (batch size, sequence bucket), bounded by an LRU policy.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

#define RETURN_IF_CUDA_ERROR(x)                                                \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) return e_;                                          \
  } while (0)

namespace serving {

struct ShapeKey {
  int batch;
  int seq_bucket;
  bool operator==(const ShapeKey &o) const {
    return batch == o.batch && seq_bucket == o.seq_bucket;
  }
};

struct ShapeKeyHash {
  size_t operator()(const ShapeKey &k) const {
    return std::hash<int64_t>()((int64_t(k.batch) << 32) | uint32_t(k.seq_bucket));
  }
};

using CaptureFn = std::function<void(cudaStream_t, const ShapeKey &)>;

class DecodeGraphCache {
 public:
  DecodeGraphCache(size_t capacity, CaptureFn capture)
      : capacity_(capacity), capture_(std::move(capture)) {}

  ~DecodeGraphCache() {
    for (auto &kv : execs_) cudaGraphExecDestroy(kv.second);
    execs_.clear();
    lru_.clear();
  }

  cudaError_t run(const ShapeKey &key, cudaStream_t stream) {
    auto it = execs_.find(key);
    if (it != execs_.end()) {
      touch(key);
      return cudaGraphLaunch(it->second, stream);
    }
    cudaGraphExec_t exec = nullptr;
    RETURN_IF_CUDA_ERROR(build(key, stream, &exec));
    if (execs_.size() >= capacity_) evict_oldest();
    execs_.emplace(key, exec);
    lru_.push_front(key);
    return cudaGraphLaunch(exec, stream);
  }

  size_t size() const { return execs_.size(); }

 private:
  cudaError_t build(const ShapeKey &key, cudaStream_t stream,
                    cudaGraphExec_t *out) {
    cudaGraph_t graph = nullptr;
    RETURN_IF_CUDA_ERROR(
        cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    capture_(stream, key);
    RETURN_IF_CUDA_ERROR(cudaStreamEndCapture(stream, &graph));
    cudaError_t st = cudaGraphInstantiateWithFlags(out, graph, 0);
    cudaGraphDestroy(graph);
    return st;
  }

  void touch(const ShapeKey &key) {
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
      if (*it == key) {
        lru_.splice(lru_.begin(), lru_, it);
        return;
      }
    }
  }

  void evict_oldest() {
    if (lru_.empty()) return;
    ShapeKey victim = lru_.back();
    lru_.pop_back();
    auto it = execs_.find(victim);
    if (it == execs_.end()) return;
#ifdef BUGGY
    execs_.erase(it);  // EXPECT: cudagraph-unpaired-instantiate
#else
    cudaGraphExecDestroy(it->second);
    execs_.erase(it);
#endif
  }

  size_t capacity_;
  CaptureFn capture_;
  std::unordered_map<ShapeKey, cudaGraphExec_t, ShapeKeyHash> execs_;
  std::list<ShapeKey> lru_;
};

}  // namespace serving

__global__ void decode_step(float *logits, const int *tokens, int batch, int seq) {
  int b = blockIdx.x;
  if (b < batch && threadIdx.x == 0) logits[b] = float(tokens[b] + seq);
}

int serve(float *logits, const int *tokens, cudaStream_t stream) {
  serving::DecodeGraphCache cache(
      8, [=](cudaStream_t s, const serving::ShapeKey &k) {
        decode_step<<<k.batch, 32, 0, s>>>(logits, tokens, k.batch, k.seq_bucket);
      });
  for (int step = 0; step < 64; ++step) {
    serving::ShapeKey key{1 + step % 12, 128 * (1 + step / 16)};
    if (cache.run(key, stream) != cudaSuccess) return 1;
  }
  return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}
