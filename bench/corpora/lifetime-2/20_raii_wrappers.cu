// Hand-written RAII owners for graph execs (kekzl/imp style "CudaGraphExec").
#include <cuda_runtime.h>
#include <utility>
#include <optional>

class CudaGraphExec {
 public:
  CudaGraphExec() = default;
  explicit CudaGraphExec(cudaGraphExec_t e) : e_(e) {}
  CudaGraphExec(CudaGraphExec&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  CudaGraphExec& operator=(CudaGraphExec&& o) noexcept {
    if (this != &o) {
      reset();
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  CudaGraphExec(const CudaGraphExec&) = delete;
  CudaGraphExec& operator=(const CudaGraphExec&) = delete;
  ~CudaGraphExec() { reset(); }
  void reset() {
    if (e_) cudaGraphExecDestroy(e_);
    e_ = nullptr;
  }
  cudaGraphExec_t get() const { return e_; }
  explicit operator bool() const { return e_ != nullptr; }

 private:
  cudaGraphExec_t e_ = nullptr;
};

// Correct: owned by the RAII wrapper.
CudaGraphExec instantiate(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return CudaGraphExec();
  return CudaGraphExec(e);
}

// Correct: wrapper constructed on the stack; early return destroys via destructor.
int replay_owned(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return -1;
  CudaGraphExec owner(raw);
  for (int i = 0; i < n; ++i)
    if (cudaGraphLaunch(owner.get(), s) != cudaSuccess) return -2;
  return 0;
}

// Correct: move-assigned into a member.
class Stage {
 public:
  void set_graph(cudaGraph_t g) {
    cudaGraphExec_t raw;
    if (cudaGraphInstantiate(&raw, g, 0) == cudaSuccess) exec_ = CudaGraphExec(raw);
  }
  void operator()(cudaStream_t s) const { cudaGraphLaunch(exec_.get(), s); }
 private:
  CudaGraphExec exec_;
};

// Buggy: the raw exec is launched but a *different* variable is wrapped
// (copy-paste slip: the warm-up exec is never owned).
int replay_owned_v2(cudaGraph_t g, cudaGraph_t warm, cudaStream_t s) {
  cudaGraphExec_t raw, warm_exec;
  if (cudaGraphInstantiate(&warm_exec, warm, 0) != cudaSuccess) return -1;  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return -1;
  CudaGraphExec owner(raw);
  cudaGraphLaunch(warm_exec, s);
  cudaGraphLaunch(owner.get(), s);
  return 0;
}

// Correct: std::optional of the wrapper.
std::optional<CudaGraphExec> maybe_instantiate(cudaGraph_t g, bool enabled) {
  if (!enabled) return std::nullopt;
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return std::nullopt;
  return CudaGraphExec(raw);
}

// Buggy: raw handle is used before ownership transfer and the failing check returns.
int replay_owned_late(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return -1;  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphUpload(raw, s) != cudaSuccess) return -2;
  CudaGraphExec owner(raw);
  return cudaGraphLaunch(owner.get(), s) == cudaSuccess ? 0 : -3;
}
