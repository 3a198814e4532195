// shared_ptr with a lambda deleter; a lambda that escapes.
#include <cuda_runtime.h>
#include <functional>
#include <memory>
#include <type_traits>

using SharedExec = std::shared_ptr<std::remove_pointer_t<cudaGraphExec_t>>;

SharedExec share_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return {};
  return SharedExec(e, [](cudaGraphExec_t p) { cudaGraphExecDestroy(p); });
}

bool run_shared(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  auto keep = std::shared_ptr<std::remove_pointer_t<cudaGraphExec_t>>(
      e, [](cudaGraphExec_t p) { if (p) cudaGraphExecDestroy(p); });
  return cudaGraphLaunch(keep.get(), s) == cudaSuccess;
}

std::function<cudaError_t()> make_launcher(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return {};
  return [e, s]() { return cudaGraphLaunch(e, s); };
}

// BUG: the lambda does not escape; nothing destroys the exec.
int count_launches(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 0; // EXPECT: cudagraph-unpaired-instantiate
  auto go = [e, s]() { return cudaGraphLaunch(e, s) == cudaSuccess; };
  int ok = 0;
  for (int i = 0; i < n; ++i) ok += go() ? 1 : 0;
  return ok;
}
