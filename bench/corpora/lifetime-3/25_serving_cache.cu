// Batch-size keyed graph cache in an LLM decode server.
// BUGGY: a racing insert loses the freshly instantiated exec.
#include <cuda_runtime.h>
#include <unordered_map>
#include <mutex>
#include <list>

class GraphCache {
public:
  ~GraphCache() {
    for (auto &kv : map_) cudaGraphExecDestroy(kv.second);
  }

  // BUGGY: between the lookup and the emplace another thread may have
  // inserted the same key; emplace then does not take e, which leaks.
  cudaGraphExec_t get_or_build(int bs, cudaGraph_t g) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      auto it = map_.find(bs);
      if (it != map_.end()) return it->second;
    }
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr; // EXPECT: cudagraph-unpaired-instantiate
    std::lock_guard<std::mutex> lk(mu_);
    auto res = map_.emplace(bs, e);
    return res.first->second;
  }

  // CORRECT: same race, but the loser destroys its exec.
  cudaGraphExec_t get_or_build_ok(int bs, cudaGraph_t g) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      auto it = map_.find(bs);
      if (it != map_.end()) return it->second;
    }
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr;
    std::lock_guard<std::mutex> lk(mu_);
    auto [it, inserted] = map_.emplace(bs, e);
    if (!inserted) cudaGraphExecDestroy(e);
    return it->second;
  }

  // CORRECT: LRU eviction destroys the evicted exec.
  void put_lru(int bs, cudaGraph_t g) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
    std::lock_guard<std::mutex> lk(mu_);
    if (lru_.size() >= 8) {
      int victim = lru_.back();
      lru_.pop_back();
      auto it = map_.find(victim);
      if (it != map_.end()) {
        cudaGraphExecDestroy(it->second);
        map_.erase(it);
      }
    }
    auto old = map_.find(bs);
    if (old != map_.end()) {
      cudaGraphExecDestroy(old->second);
      old->second = e;
    } else {
      map_[bs] = e;
      lru_.push_front(bs);
    }
  }

private:
  std::mutex mu_;
  std::unordered_map<int, cudaGraphExec_t> map_;
  std::list<int> lru_;
};
