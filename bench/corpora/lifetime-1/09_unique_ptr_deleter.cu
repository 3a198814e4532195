// std::unique_ptr / std::shared_ptr with custom deleters for execs.
#include <cuda_runtime.h>
#include <memory>
#include <type_traits>

using ExecHandle = std::remove_pointer_t<cudaGraphExec_t>;
using ExecFnPtr =
    std::unique_ptr<ExecHandle, decltype(&cudaGraphExecDestroy)>;

struct ExecDeleter {
  void operator()(cudaGraphExec_t e) const noexcept {
    if (e)
      cudaGraphExecDestroy(e);
  }
};
using ExecPtr = std::unique_ptr<ExecHandle, ExecDeleter>;

// Correct: function-pointer deleter.
ExecFnPtr instantiate_owned(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return ExecFnPtr(nullptr, &cudaGraphExecDestroy);
  return ExecFnPtr(e, &cudaGraphExecDestroy);
}

// Correct: reset() hands ownership over.
void rebuild_into(ExecPtr &slot, cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch) == cudaSuccess)
    slot.reset(e);
}

// Correct: shared ownership with a lambda deleter.
std::shared_ptr<ExecHandle> share_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  return std::shared_ptr<ExecHandle>(e, [](cudaGraphExec_t p) { cudaGraphExecDestroy(p); });
}

// Buggy: the upload check returns before the unique_ptr takes ownership.
ExecPtr instantiate_uploaded(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return nullptr;
  if (cudaGraphUpload(e, s) != cudaSuccess)
    return nullptr;
  return ExecPtr(e);
}

// Correct: adopt first, then upload.
ExecPtr instantiate_uploaded_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  ExecPtr owned(e);
  if (cudaGraphUpload(owned.get(), s) != cudaSuccess)
    return nullptr;
  return owned;
}

// Correct: make_unique-style adoption into a member.
struct Step {
  ExecPtr exec;
  void build(cudaGraph_t g) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
      exec = ExecPtr(e);
  }
};
