// unique_ptr with a functor deleter.
#include <cuda_runtime.h>
#include <memory>
#include <type_traits>
#include <utility>

struct ExecDeleter {
  void operator()(cudaGraphExec_t e) const noexcept {
    if (e) cudaGraphExecDestroy(e);
  }
};
using ExecPtr = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, ExecDeleter>;

ExecPtr make_exec(cudaGraph_t g) {
  cudaGraphExec_t raw = nullptr;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return nullptr;
  return ExecPtr(raw);
}

bool run_owned(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw = nullptr;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return false;
  ExecPtr owner{raw};
  if (cudaGraphLaunch(owner.get(), s) != cudaSuccess)
    return false;
  return cudaStreamSynchronize(s) == cudaSuccess;
}

bool run_reset(cudaGraph_t g, cudaStream_t s) {
  ExecPtr owner;
  cudaGraphExec_t raw = nullptr;
  if (cudaGraphInstantiate(&raw, g, 0) == cudaSuccess)
    owner.reset(raw);
  return owner && cudaGraphLaunch(owner.get(), s) == cudaSuccess;
}

bool use_factory(cudaGraph_t g, cudaStream_t s) {
  ExecPtr p = make_exec(g);
  if (!p) return false;
  return cudaGraphLaunch(p.get(), s) == cudaSuccess;
}

// BUG: the launch check returns before the handle is given to the owner.
bool run_owned_late(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw = nullptr;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  if (cudaGraphUpload(raw, s) != cudaSuccess)
    return false;
  ExecPtr owner(raw);
  return cudaGraphLaunch(owner.get(), s) == cudaSuccess;
}
