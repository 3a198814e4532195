// Lambdas around execs: scope guards, deferred callbacks, local invocations.
#include <cuda_runtime.h>
#include <functional>
#include <utility>
#include <vector>

template <typename F>
class ScopeExit {
public:
  explicit ScopeExit(F f) : f_(std::move(f)) {}
  ~ScopeExit() { f_(); }
  ScopeExit(const ScopeExit &) = delete;

private:
  F f_;
};
template <typename F> ScopeExit<F> make_scope_exit(F f) { return ScopeExit<F>(std::move(f)); }

// Correct: a scope guard destroys the exec on every path.
bool run_guarded(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return false;
  auto guard = make_scope_exit([&] { cudaGraphExecDestroy(exec); });
  for (int i = 0; i < n; ++i)
    if (cudaGraphLaunch(exec, s) != cudaSuccess)
      return false;
  return true;
}

class Scheduler {
public:
  ~Scheduler() {
    for (auto &f : on_shutdown_)
      f();
  }
  // Correct: the destroy is deferred to shutdown via a stored callback.
  void keep(cudaGraph_t g) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return;
    on_shutdown_.push_back([exec] { cudaGraphExecDestroy(exec); });
  }

private:
  std::vector<std::function<void()>> on_shutdown_;
};

// Buggy: the lambda only launches; it is called and dies with the exec.
void run_local_lambda(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  auto launch = [exec, s] { cudaGraphLaunch(exec, s); };
  for (int i = 0; i < n; ++i)
    launch();
  cudaStreamSynchronize(s);
}

// Buggy: a cleanup lambda exists but an early return skips calling it.
bool run_manual_cleanup(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  auto cleanup = [&] { cudaGraphExecDestroy(exec); };
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    return false;
  cudaStreamSynchronize(s);
  cleanup();
  return true;
}

// Correct: immediately-invoked lambda that destroys.
void run_iife(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
  [&]() { cudaGraphExecDestroy(exec); }();
}
