// TORCH_CHECK-style assertions that end in a [[noreturn]] reporter.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace mini {
[[noreturn]] void check_failed(const char *file, int line, const char *msg) {
  std::ostringstream os;
  os << file << ":" << line << ": " << msg;
  throw std::runtime_error(os.str());
}
// Not annotated, but it never returns.
void fatal(const char *msg) {
  fprintf(stderr, "fatal: %s\n", msg);
  abort();
}
} // namespace mini

#define MINI_CHECK(cond, msg)                                                  \
  if (!(cond))                                                                 \
  ::mini::check_failed(__FILE__, __LINE__, msg)

#define MINI_CUDA_CHECK(expr)                                                  \
  do {                                                                         \
    const cudaError_t __err = (expr);                                          \
    MINI_CHECK(__err == cudaSuccess, cudaGetErrorString(__err));               \
  } while (0)

class CUDAGraph {
public:
  void capture_end(cudaStream_t s) {
    MINI_CUDA_CHECK(cudaStreamEndCapture(s, &graph_));
    MINI_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec_, graph_, 0));
    has_graph_exec_ = true;
  }
  void replay(cudaStream_t s) {
    MINI_CHECK(has_graph_exec_, "replay before capture_end");
    MINI_CUDA_CHECK(cudaGraphLaunch(exec_, s));
  }
  void reset() {
    if (has_graph_exec_) {
      MINI_CUDA_CHECK(cudaGraphExecDestroy(exec_));
      MINI_CUDA_CHECK(cudaGraphDestroy(graph_));
      has_graph_exec_ = false;
    }
  }
  ~CUDAGraph() { reset(); }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  bool has_graph_exec_ = false;
};

// Correct: every failure after instantiation ends in check_failed/fatal.
void run_checked(cudaGraph_t g, cudaStream_t s, int batch) {
  cudaGraphExec_t exec;
  MINI_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
  MINI_CHECK(batch > 0, "batch must be positive");
  if (batch > 4096)
    mini::fatal("batch too large");
  MINI_CUDA_CHECK(cudaGraphLaunch(exec, s));
  MINI_CUDA_CHECK(cudaGraphExecDestroy(exec));
}

// Buggy: a soft "skip" path that is neither a check nor a destroy.
void run_maybe(cudaGraph_t g, cudaStream_t s, int batch) {
  cudaGraphExec_t exec;
  MINI_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  MINI_CHECK(batch >= 0, "negative batch");
  if (batch == 0)
    return;
  MINI_CUDA_CHECK(cudaGraphLaunch(exec, s));
  MINI_CUDA_CHECK(cudaGraphExecDestroy(exec));
}
