// RAII owners for graph execs, custom deleters, and helpers defined in the
// same file versus opaque external sinks.
#include <cuda_runtime.h>
#include <memory>
#include <utility>

class GraphExec {
public:
  GraphExec() = default;
  explicit GraphExec(cudaGraphExec_t e) : e_(e) {}
  GraphExec(GraphExec &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  GraphExec &operator=(GraphExec &&o) noexcept {
    if (this != &o) { reset(); e_ = std::exchange(o.e_, nullptr); }
    return *this;
  }
  ~GraphExec() { reset(); }
  void reset() { if (e_) cudaGraphExecDestroy(e_); e_ = nullptr; }
  cudaGraphExec_t get() const { return e_; }

private:
  cudaGraphExec_t e_ = nullptr;
};

struct ExecDeleter {
  void operator()(CUgraphExec_st *e) const { cudaGraphExecDestroy(e); }
};
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;

void registerExternalExec(cudaGraphExec_t e);  // defined in another TU

static void launchTwice(cudaGraphExec_t e, cudaStream_t s) {
  cudaGraphLaunch(e, s);
  cudaGraphLaunch(e, s);
}

// Correct: owned by the RAII wrapper.
GraphExec makeOwned(cudaGraph_t g) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return GraphExec();
  return GraphExec(raw);
}

// Correct: owned by unique_ptr with a custom deleter.
void useUnique(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return;
  ExecPtr owner(raw);
  launchTwice(owner.get(), s);
}

// Correct: handed to an external registry.
void publish(cudaGraph_t g) {
  cudaGraphExec_t raw;
  cudaGraphInstantiate(&raw, g, 0);
  registerExternalExec(raw);
}

// Buggy: the same-file helper only launches; nobody owns the exec.
void launchLocalHelper(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  launchTwice(raw, s);
}

// Buggy: the wrapper is created only on one branch.
void conditionalOwner(cudaGraph_t g, cudaStream_t s, bool keep) {
  cudaGraphExec_t raw;
  cudaGraphInstantiate(&raw, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(raw, s);
  if (keep) {
    GraphExec owned(raw);
    cudaStreamSynchronize(s);
  }
}

// Correct: move-assigned into an existing owner.
void replaceOwned(GraphExec &slot, cudaGraph_t g) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) == cudaSuccess)
    slot = GraphExec(raw);
}
