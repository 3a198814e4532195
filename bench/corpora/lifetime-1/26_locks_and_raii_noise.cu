// Unrelated RAII objects (locks, timers) must not be mistaken for owners.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>

struct ScopedTimer {
  explicit ScopedTimer(const char *n) : name(n), t0(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    auto dt = std::chrono::steady_clock::now() - t0;
    printf("%s: %lld us\n", name,
           (long long)std::chrono::duration_cast<std::chrono::microseconds>(dt).count());
  }
  const char *name;
  std::chrono::steady_clock::time_point t0;
};

class GraphPool {
public:
  ~GraphPool() {
    for (auto &kv : pool_)
      cudaGraphExecDestroy(kv.second);
  }

  // Buggy: the lock guard has a destructor, but it does not own the exec.
  bool warm(int key, cudaGraph_t g, cudaStream_t s) {
    std::lock_guard<std::mutex> lk(mu_);
    ScopedTimer timer("warm");
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return false;
    if (pool_.count(key))
      return true;
    cudaGraphLaunch(e, s);
    pool_[key] = e;
    return true;
  }

  // Correct: same shape, duplicate handled.
  bool warm_ok(int key, cudaGraph_t g, cudaStream_t s) {
    std::lock_guard<std::mutex> lk(mu_);
    ScopedTimer timer("warm");
    if (pool_.count(key))
      return true;
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return false;
    cudaGraphLaunch(e, s);
    pool_[key] = e;
    return true;
  }

  // Correct: LRU-style eviction then insert.
  void insert_evict(int key, cudaGraph_t g, size_t cap) {
    std::unique_lock<std::mutex> lk(mu_);
    if (pool_.size() >= cap && !pool_.empty()) {
      auto victim = pool_.begin();
      cudaGraphExecDestroy(victim->second);
      pool_.erase(victim);
    }
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return;
    pool_.emplace(key, e);
  }

private:
  std::mutex mu_;
  std::unordered_map<int, cudaGraphExec_t> pool_;
};
