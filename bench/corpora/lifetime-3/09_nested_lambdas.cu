// Execs handled inside nested lambdas and escaping callbacks.
// CORRECT: the locally-invoked lambdas destroy the exec; stored lambdas own it.
#include <cuda_runtime.h>
#include <functional>
#include <vector>

class Scheduler {
public:
  void on_shutdown(std::function<void()> fn) { hooks_.push_back(std::move(fn)); }
  ~Scheduler() {
    for (auto &h : hooks_) h();
  }

private:
  std::vector<std::function<void()>> hooks_;
};

int run_scoped(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 1;
  auto finish = [&]() {
    auto destroy = [&e]() {
      cudaGraphExecDestroy(e);
      e = nullptr;
    };
    cudaStreamSynchronize(s);
    destroy();
  };
  cudaGraphLaunch(e, s);
  finish();
  return 0;
}

void register_graph(Scheduler &sched, cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  cudaGraphLaunch(e, s);
  sched.on_shutdown([e]() { cudaGraphExecDestroy(e); });
}

std::function<cudaError_t(cudaStream_t)> make_launcher(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return [](cudaStream_t) { return cudaErrorInvalidValue; };
  return [e](cudaStream_t s) { return cudaGraphLaunch(e, s); };
}

int run_each(const std::vector<cudaGraph_t> &gs, cudaStream_t s) {
  int fails = 0;
  auto with_exec = [&](cudaGraph_t g, auto &&body) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) { ++fails; return; }
    body(e);
    cudaGraphExecDestroy(e);
  };
  for (cudaGraph_t g : gs)
    with_exec(g, [&](cudaGraphExec_t e) { if (cudaGraphLaunch(e, s) != cudaSuccess) ++fails; });
  return fails;
}
