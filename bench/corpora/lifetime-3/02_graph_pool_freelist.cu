// A pool of instantiated graphs with a free list, as used by a request batcher.
// CORRECT: execs move between the pool's vectors and are destroyed in the dtor.
#include <cuda_runtime.h>
#include <vector>
#include <mutex>
#include <cstddef>

class ExecPool {
public:
  explicit ExecPool(cudaGraph_t tmpl) : tmpl_(tmpl) {}
  ExecPool(const ExecPool &) = delete;
  ExecPool &operator=(const ExecPool &) = delete;

  ~ExecPool() {
    std::lock_guard<std::mutex> lk(mu_);
    for (cudaGraphExec_t e : free_) cudaGraphExecDestroy(e);
    for (cudaGraphExec_t e : busy_) cudaGraphExecDestroy(e);
  }

  // Hands out an exec; the caller gives it back with release().
  cudaGraphExec_t acquire() {
    std::lock_guard<std::mutex> lk(mu_);
    if (!free_.empty()) {
      cudaGraphExec_t e = free_.back();
      free_.pop_back();
      busy_.push_back(e);
      return e;
    }
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, tmpl_, 0) != cudaSuccess)
      return nullptr;
    busy_.push_back(e);
    return e;
  }

  void release(cudaGraphExec_t e) {
    std::lock_guard<std::mutex> lk(mu_);
    for (std::size_t i = 0; i < busy_.size(); ++i) {
      if (busy_[i] == e) {
        busy_[i] = busy_.back();
        busy_.pop_back();
        break;
      }
    }
    if (free_.size() >= kMaxFree) {
      cudaGraphExecDestroy(e);
      return;
    }
    free_.push_back(e);
  }

  // Pre-warm: instantiate n execs straight into the free list.
  bool warm(int n) {
    for (int i = 0; i < n; ++i) {
      cudaGraphExec_t e;
      cudaError_t st = cudaGraphInstantiate(&e, tmpl_, 0);
      if (st != cudaSuccess) return false;
      std::lock_guard<std::mutex> lk(mu_);
      free_.push_back(e);
    }
    return true;
  }

private:
  static constexpr std::size_t kMaxFree = 8;
  cudaGraph_t tmpl_;
  std::mutex mu_;
  std::vector<cudaGraphExec_t> free_;
  std::vector<cudaGraphExec_t> busy_;
};

int serve(cudaGraph_t g, cudaStream_t s, int requests) {
  ExecPool pool(g);
  if (!pool.warm(2)) return 1;
  for (int r = 0; r < requests; ++r) {
    cudaGraphExec_t e = pool.acquire();
    if (!e) continue;
    cudaGraphLaunch(e, s);
    pool.release(e);
  }
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 2;
}
