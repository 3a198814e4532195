// Ownership through unique_ptr / shared_ptr with custom deleters.
#include <cuda_runtime.h>
#include <memory>
#include <type_traits>
#include <vector>

struct ExecDeleter {
  void operator()(CUgraphExec_st* e) const {
    if (e) cudaGraphExecDestroy(e);
  }
};
using UniqueExec = std::unique_ptr<CUgraphExec_st, ExecDeleter>;
using SharedExec = std::shared_ptr<CUgraphExec_st>;

__global__ void moe_dispatch(const int* experts, float* buf, int tokens) {}

static cudaGraph_t capture_moe(cudaStream_t s, const int* experts, float* buf, int tokens) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  moe_dispatch<<<tokens, 128, 0, s>>>(experts, buf, tokens);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: unique_ptr takes the exec right after instantiation.
UniqueExec make_unique_exec(cudaStream_t s, const int* experts, float* buf, int tokens) {
  cudaGraph_t g = capture_moe(s, experts, buf, tokens);
  cudaGraphExec_t raw = nullptr;
  cudaError_t err = cudaGraphInstantiate(&raw, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return nullptr;
  return UniqueExec(raw);
}

// Correct: shared_ptr with a lambda deleter.
SharedExec make_shared_exec(cudaGraph_t g) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return nullptr;
  return SharedExec(raw, [](cudaGraphExec_t e) { cudaGraphExecDestroy(e); });
}

// Buggy: validation happens before the exec is wrapped.
UniqueExec make_unique_exec_validated(cudaStream_t s, const int* experts, float* buf, int tokens,
                                      int max_tokens) {
  cudaGraph_t g = capture_moe(s, experts, buf, tokens);
  cudaGraphExec_t raw = nullptr;
  cudaError_t err = cudaGraphInstantiate(&raw, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return nullptr;
  if (tokens > max_tokens) return nullptr;
  return UniqueExec(raw);
}

// Correct: wrapped immediately, later early return is fine (deleter runs).
void run_scoped(cudaStream_t s, cudaGraph_t g, int reps) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return;
  UniqueExec guard(raw);
  for (int i = 0; i < reps; ++i) {
    if (cudaGraphLaunch(guard.get(), s) != cudaSuccess) return;
  }
  cudaStreamSynchronize(s);
}

// Correct: reset() on an owning pointer.
class MoeGraph {
 public:
  void rebuild(cudaGraph_t g) {
    cudaGraphExec_t raw;
    if (cudaGraphInstantiate(&raw, g, 0) == cudaSuccess) exec_.reset(raw);
  }
  void launch(cudaStream_t s) { cudaGraphLaunch(exec_.get(), s); }
 private:
  UniqueExec exec_;
};

// Buggy: the exec is only wrapped when the caller asks to keep it.
UniqueExec launch_and_maybe_keep(cudaGraph_t g, cudaStream_t s, bool keep) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) return nullptr;  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(raw, s);
  if (keep) return UniqueExec(raw);
  return nullptr;
}

// Correct: vector of shared owners.
std::vector<SharedExec> make_many(const std::vector<cudaGraph_t>& gs) {
  std::vector<SharedExec> out;
  for (cudaGraph_t g : gs) {
    cudaGraphExec_t raw;
    if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) continue;
    out.emplace_back(raw, ExecDeleter());
  }
  return out;
}
