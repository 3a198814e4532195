// Execs captured by lambdas: deferred callbacks (escape) vs. local helpers (no escape).
#include <cuda_runtime.h>
#include <functional>
#include <vector>
#include <utility>

class Scheduler {
 public:
  void on_step(std::function<void(cudaStream_t)> fn) { hooks_.push_back(std::move(fn)); }
  void run(cudaStream_t s) {
    for (auto& h : hooks_) h(s);
  }
 private:
  std::vector<std::function<void(cudaStream_t)>> hooks_;
};

// Correct: the lambda that owns the exec is stored in the scheduler (escapes).
void register_graph_hook(Scheduler& sched, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return;
  sched.on_step([e](cudaStream_t s) { cudaGraphLaunch(e, s); });
}

// Correct: the lambda escapes by being returned.
std::function<void(cudaStream_t)> make_replayer(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  return [e](cudaStream_t s) { cudaGraphLaunch(e, s); };
}

// Buggy: local lambda used only inside the function; nothing destroys the exec.
void replay_n(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  auto replay = [e, s]() { return cudaGraphLaunch(e, s); };
  for (int i = 0; i < n; ++i) replay();
  cudaStreamSynchronize(s);
}

// Correct: local lambda, explicit destroy afterwards.
void replay_n_fixed(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  auto replay = [&]() { return cudaGraphLaunch(e, s); };
  for (int i = 0; i < n; ++i) replay();
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
}

// Correct: a scope-exit lambda (defer idiom) destroys the exec.
template <typename F>
struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <typename F>
ScopeExit<F> make_scope_exit(F f) { return ScopeExit<F>{f}; }

int replay_deferred(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  auto cleanup = make_scope_exit([&] { cudaGraphExecDestroy(e); });
  for (int i = 0; i < n; ++i)
    if (cudaGraphLaunch(e, s) != cudaSuccess) return -2;
  return 0;
}

// Buggy: host callback is enqueued with a pointer to a stack variable that is NOT the exec;
// the exec itself is dropped.
static void CUDART_CB notify(void* flag) { *static_cast<volatile int*>(flag) = 1; }
void replay_with_host_fn(cudaGraph_t g, cudaStream_t s, volatile int* flag) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaLaunchHostFunc(s, notify, (void*)flag);
}
