// Callback-driven scheduler using std::function.
#include <cuda_runtime.h>
#include <functional>
#include <vector>
#include <utility>

using Task = std::function<cudaError_t(cudaStream_t)>;

class Scheduler {
 public:
  void add(Task t) { tasks_.push_back(std::move(t)); }
  void add_cleanup(std::function<void()> f) { cleanups_.push_back(std::move(f)); }
  cudaError_t run(cudaStream_t s) {
    for (auto& t : tasks_) {
      auto err = t(s);
      if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
  }
  ~Scheduler() {
    for (auto& c : cleanups_) c();
  }

 private:
  std::vector<Task> tasks_;
  std::vector<std::function<void()>> cleanups_;
};

// Correct: the exec is captured by lambdas that are stored in the scheduler
// (they escape), one of which destroys it.
bool schedule_graph(Scheduler& sch, cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) return false;
  sch.add([exec](cudaStream_t s) { return cudaGraphLaunch(exec, s); });
  sch.add_cleanup([exec] { cudaGraphExecDestroy(exec); });
  return true;
}

// Correct: returns a std::function that owns the launch (escape by return).
Task make_task(cudaGraph_t g) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return [](cudaStream_t) { return cudaErrorInvalidValue; };
  return [exec](cudaStream_t s) { return cudaGraphLaunch(exec, s); };
}

// BUG: the lambda is a local that never leaves the function, and nobody
// destroys the exec after the retries.
cudaError_t run_with_retry(cudaGraph_t g, cudaStream_t s, int tries) {
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (err != cudaSuccess) return err;
  std::function<cudaError_t()> once = [&]() { return cudaGraphLaunch(exec, s); };
  for (int i = 0; i < tries; ++i) {
    err = once();
    if (err == cudaSuccess) break;
  }
  return err;
}

// Correct: local lambda used for the launches, exec destroyed afterwards.
cudaError_t run_local(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
  if (err != cudaSuccess) return err;
  auto launch = [exec, s] { return cudaGraphLaunch(exec, s); };
  err = launch();
  if (err == cudaSuccess) err = launch();
  cudaGraphExecDestroy(exec);
  return err;
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  {
    Scheduler sch;
    schedule_graph(sch, g);
    sch.run(s);
  }
  Task t = make_task(g);
  t(s);
  run_with_retry(g, s, 3);
  run_local(g, s);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  return 0;
}
