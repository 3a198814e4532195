// Exec pool keyed by batch size with LRU eviction.
#include <cuda_runtime.h>
#include <list>
#include <unordered_map>
#include <utility>

class ExecPool {
public:
  explicit ExecPool(size_t cap) : cap_(cap) {}
  ~ExecPool() {
    for (auto &kv : lru_) cudaGraphExecDestroy(kv.second);
  }

  // Correct: evicted exec destroyed; new exec stored in the container.
  cudaGraphExec_t get(int batch, cudaGraph_t g) {
    auto it = index_.find(batch);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->second;
    }
    if (lru_.size() == cap_) {
      cudaGraphExecDestroy(lru_.back().second);
      index_.erase(lru_.back().first);
      lru_.pop_back();
    }
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return nullptr;
    lru_.emplace_front(batch, exec);
    index_[batch] = lru_.begin();
    return exec;
  }

  // Leaky eviction policy (evicted exec not destroyed), but the new exec
  // itself escapes into the container, so the instantiate is not a report.
  cudaGraphExec_t getNoDestroyOnEvict(int batch, cudaGraph_t g) {
    if (lru_.size() == cap_) {
      index_.erase(lru_.back().first);
      lru_.pop_back();
    }
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    lru_.emplace_front(batch, exec);
    index_[batch] = lru_.begin();
    return exec;
  }

  // Buggy: when the pool is pinned full the fresh exec is neither cached
  // nor destroyed.
  bool prefetch(int batch, cudaGraph_t g, bool pinned) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return false;
    if (pinned && lru_.size() >= cap_)
      return false;
    lru_.emplace_front(batch, exec);
    index_[batch] = lru_.begin();
    return true;
  }

  // Correct: the pinned branch destroys.
  bool prefetchFixed(int batch, cudaGraph_t g, bool pinned) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return false;
    if (pinned && lru_.size() >= cap_) {
      cudaGraphExecDestroy(exec);
      return false;
    }
    lru_.push_front(std::make_pair(batch, exec));
    index_[batch] = lru_.begin();
    return true;
  }

private:
  using Entry = std::pair<int, cudaGraphExec_t>;
  size_t cap_;
  std::list<Entry> lru_;
  std::unordered_map<int, std::list<Entry>::iterator> index_;
};

// Correct: pool used from a free function.
cudaError_t runBatch(ExecPool &pool, int batch, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = pool.get(batch, g);
  return e ? cudaGraphLaunch(e, s) : cudaErrorInvalidValue;
}
