// Mixture-of-experts token dispatch: graphs keyed by (active experts, token
// bucket) with a small LRU. The cache owns every exec it holds.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <list>
#include <unordered_map>
#include <utility>
#include <vector>

namespace moe {

__global__ void route_kernel(const float* logits, int* expert_of, int tokens, int experts) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tokens) return;
  int best = 0;
  for (int e = 1; e < experts; ++e)
    if (logits[t * experts + e] > logits[t * experts + best]) best = e;
  expert_of[t] = best;
}

__global__ void permute_kernel(const int* expert_of, const float* x, float* y, int tokens, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tokens * d) y[i] = x[i] * (1.0f + expert_of[i / d] * 1e-3f);
}

__global__ void combine_kernel(const float* y, float* out, int tokens, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tokens * d) out[i] += y[i];
}

struct Key {
  int experts;
  int tokens;
  bool operator==(const Key& o) const { return experts == o.experts && tokens == o.tokens; }
};

struct KeyHash {
  size_t operator()(const Key& k) const {
    return (static_cast<size_t>(k.experts) << 32) ^ static_cast<size_t>(k.tokens);
  }
};

struct Workspace {
  float* logits;
  int* expert_of;
  float* x;
  float* y;
  float* out;
  int d_model;
};

class DispatchGraphCache {
 public:
  DispatchGraphCache(Workspace ws, cudaStream_t s, size_t capacity)
      : ws_(ws), stream_(s), capacity_(capacity) {}

  ~DispatchGraphCache() { clear(); }

  void clear() {
    for (auto& e : map_) cudaGraphExecDestroy(e.second.first);
    map_.clear();
    lru_.clear();
  }

  cudaError_t dispatch(int experts, int tokens) {
    Key k{experts, round_up(tokens)};
    auto it = map_.find(k);
    if (it != map_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.second);
      return cudaGraphLaunch(it->second.first, stream_);
    }
    cudaGraph_t g = nullptr;
    cudaError_t err = capture(k, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t exec = nullptr;
    err = cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagUpload);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return err;
    err = cudaGraphLaunch(exec, stream_);
    if (err != cudaSuccess) {
      cudaGraphExecDestroy(exec);
      return err;
    }
    insert(k, exec);
    return cudaSuccess;
  }

  // Pre-builds graphs for the buckets that production traffic uses most.
  int prewarm(int experts, const std::vector<int>& token_counts) {
    int built = 0;
    for (int t : token_counts) {
      Key k{experts, round_up(t)};
      cudaGraph_t g = nullptr;
      if (capture(k, &g) != cudaSuccess) continue;
      cudaGraphExec_t exec = nullptr;
      cudaError_t err = cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      if (err != cudaSuccess) continue;
      if (map_.count(k)) continue;  // two counts rounded to the same bucket: exec leaks
      insert(k, exec);
      ++built;
    }
    return built;
  }

  // Uploads the graph to the device ahead of first launch.
  cudaError_t preload(int experts, int tokens) {
    Key k{experts, round_up(tokens)};
    if (map_.count(k)) return cudaSuccess;
    cudaGraph_t g = nullptr;
    cudaError_t err = capture(k, &g);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t exec = nullptr;
    err = cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (err != cudaSuccess) return err;
    err = cudaGraphUpload(exec, stream_);
    if (err != cudaSuccess) return err;
    insert(k, exec);
    return cudaSuccess;
  }

  size_t size() const { return map_.size(); }

 private:
  static int round_up(int tokens) {
    int b = 16;
    while (b < tokens) b *= 2;
    return b;
  }

  void insert(const Key& k, cudaGraphExec_t exec) {
    if (map_.size() >= capacity_ && !lru_.empty()) {
      Key victim = lru_.back();
      lru_.pop_back();
      auto v = map_.find(victim);
      if (v != map_.end()) {
        cudaGraphExecDestroy(v->second.first);
        map_.erase(v);
      }
    }
    lru_.push_front(k);
    map_[k] = std::make_pair(exec, lru_.begin());
  }

  cudaError_t capture(const Key& k, cudaGraph_t* out) {
    cudaError_t err = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess) return err;
    int n = k.tokens * ws_.d_model;
    route_kernel<<<(k.tokens + 127) / 128, 128, 0, stream_>>>(ws_.logits, ws_.expert_of, k.tokens, k.experts);
    permute_kernel<<<(n + 255) / 256, 256, 0, stream_>>>(ws_.expert_of, ws_.x, ws_.y, k.tokens, ws_.d_model);
    combine_kernel<<<(n + 255) / 256, 256, 0, stream_>>>(ws_.y, ws_.out, k.tokens, ws_.d_model);
    return cudaStreamEndCapture(stream_, out);
  }

  Workspace ws_;
  cudaStream_t stream_;
  size_t capacity_;
  std::list<Key> lru_;
  std::unordered_map<Key, std::pair<cudaGraphExec_t, std::list<Key>::iterator>, KeyHash> map_;
};

// Global registry used by the scheduler to query per-layer caches.
static std::vector<DispatchGraphCache*> g_layer_caches;

DispatchGraphCache* make_layer_cache(Workspace ws, cudaStream_t s) {
  auto* c = new DispatchGraphCache(ws, s, 32);
  g_layer_caches.push_back(c);
  return c;
}

void destroy_layer_caches() {
  for (auto* c : g_layer_caches) delete c;
  g_layer_caches.clear();
}

}  // namespace moe

int moe_main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  moe::Workspace ws{};
  ws.d_model = 256;
  cudaMalloc(&ws.logits, 4096 * 8 * sizeof(float));
  cudaMalloc(&ws.expert_of, 4096 * sizeof(int));
  cudaMalloc(&ws.x, 4096 * 256 * sizeof(float));
  cudaMalloc(&ws.y, 4096 * 256 * sizeof(float));
  cudaMalloc(&ws.out, 4096 * 256 * sizeof(float));
  auto* cache = moe::make_layer_cache(ws, s);
  cache->prewarm(8, {10, 17, 30, 64, 100});
  cache->preload(8, 2000);
  for (int t : {5, 33, 120, 900}) cache->dispatch(8, t);
  cudaStreamSynchronize(s);
  moe::destroy_layer_caches();
  cudaFree(ws.logits);
  cudaFree(ws.expert_of);
  cudaFree(ws.x);
  cudaFree(ws.y);
  cudaFree(ws.out);
  cudaStreamDestroy(s);
  return 0;
}
