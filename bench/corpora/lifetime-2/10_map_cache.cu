// std::map / unordered_map caches keyed by (batch, seq) with eviction.
#include <cuda_runtime.h>
#include <map>
#include <unordered_map>
#include <utility>
#include <cstdint>
#include <mutex>

__global__ void attn_decode(float* q, float* kv, int bs, int seq) {}

static uint64_t key_of(int bs, int seq) { return (uint64_t(bs) << 32) | uint32_t(seq); }

class AttnGraphCache {
 public:
  explicit AttnGraphCache(size_t cap) : cap_(cap) {}
  ~AttnGraphCache() {
    for (auto& kv : cache_) cudaGraphExecDestroy(kv.second);
  }

  // Correct: a miss instantiates and stores into the map.
  cudaGraphExec_t get_or_create(cudaStream_t s, float* q, float* kv, int bs, int seq) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = cache_.find(key_of(bs, seq));
    if (it != cache_.end()) return it->second;
    cudaGraph_t g = capture(s, q, kv, bs, seq);
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
      cudaGraphDestroy(g);
      return nullptr;
    }
    cudaGraphDestroy(g);
    cache_[key_of(bs, seq)] = e;
    return e;
  }

  // Buggy: when the cache is full the freshly built exec is launched once and dropped.
  bool run_uncached_if_full(cudaStream_t s, float* q, float* kv, int bs, int seq) {
    cudaGraph_t g = capture(s, q, kv, bs, seq);
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      return false;
    }
    cudaGraphDestroy(g);
    std::lock_guard<std::mutex> lk(mu_);
    if (cache_.size() >= cap_) {
      return cudaGraphLaunch(e, s) == cudaSuccess;
    }
    cache_.emplace(key_of(bs, seq), e);
    return cudaGraphLaunch(e, s) == cudaSuccess;
  }

  // Correct: full cache path evicts an entry and destroys the temporary exec.
  bool run_uncached_if_full_fixed(cudaStream_t s, float* q, float* kv, int bs, int seq) {
    cudaGraph_t g = capture(s, q, kv, bs, seq);
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
      cudaGraphDestroy(g);
      return false;
    }
    cudaGraphDestroy(g);
    std::lock_guard<std::mutex> lk(mu_);
    if (cache_.size() >= cap_) {
      bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
      cudaStreamSynchronize(s);
      cudaGraphExecDestroy(e);
      return ok;
    }
    cache_.insert(std::make_pair(key_of(bs, seq), e));
    return cudaGraphLaunch(e, s) == cudaSuccess;
  }

  // Correct: eviction destroys the exec that is removed.
  void evict_one() {
    std::lock_guard<std::mutex> lk(mu_);
    if (cache_.empty()) return;
    auto it = cache_.begin();
    cudaGraphExecDestroy(it->second);
    cache_.erase(it);
  }

 private:
  cudaGraph_t capture(cudaStream_t s, float* q, float* kv, int bs, int seq) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    attn_decode<<<bs, 128, 0, s>>>(q, kv, bs, seq);
    cudaStreamEndCapture(s, &g);
    return g;
  }
  size_t cap_;
  std::mutex mu_;
  std::unordered_map<uint64_t, cudaGraphExec_t> cache_;
};

// Correct: a global ordered map as the cache.
static std::map<int, cudaGraphExec_t> g_prefill_graphs;

void register_prefill_graph(int len, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  g_prefill_graphs.emplace(len, e);
}

// Correct: destroys the old entry before replacing it.
void refresh_prefill_graph(int len, cudaGraph_t g) {
  cudaGraphExec_t e = g_prefill_graphs.at(len);
  cudaGraphLaunch(e, 0);
  cudaGraphExecDestroy(e);
  cudaGraphExec_t fresh;
  cudaGraphInstantiate(&fresh, g, 0);
  g_prefill_graphs[len] = fresh;
}
