// Exec handed to a worker thread through a queue.
#include <condition_variable>
#include <cuda_runtime.h>
#include <deque>
#include <mutex>
#include <thread>

class LaunchQueue {
public:
  void push(cudaGraphExec_t e) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      q_.push_back(e);
    }
    cv_.notify_one();
  }
  void drain(cudaStream_t s) {
    std::unique_lock<std::mutex> lk(mu_);
    while (!q_.empty()) {
      cudaGraphExec_t e = q_.front();
      q_.pop_front();
      lk.unlock();
      cudaGraphLaunch(e, s);
      cudaStreamSynchronize(s);
      cudaGraphExecDestroy(e);
      lk.lock();
    }
  }
private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<cudaGraphExec_t> q_;
};

bool submit(LaunchQueue &q, cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  q.push(e);
  return true;
}

void run_on_thread(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  std::thread t([e, s] {
    cudaGraphLaunch(e, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(e);
  });
  t.join();
}

std::deque<cudaGraphExec_t> g_pending;
std::mutex g_pending_mu;

void submit_global(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) {
    std::lock_guard<std::mutex> lk(g_pending_mu);
    g_pending.push_back(e);
  }
}

// BUG: on a full queue the exec is dropped.
bool submit_bounded(LaunchQueue &q, cudaGraph_t g, bool full) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false; // EXPECT: cudagraph-unpaired-instantiate
  if (full) return false;
  q.push(e);
  return true;
}
