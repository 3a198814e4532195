// Thin namespaced wrappers over the runtime API, defined in this file.
#include <cuda_runtime.h>
#include <cstdio>

namespace gpu {
inline cudaError_t destroy(cudaGraphExec_t e) { return cudaGraphExecDestroy(e); }
inline cudaError_t instantiate(cudaGraphExec_t* e, cudaGraph_t g) {
  return cudaGraphInstantiate(e, g, 0);
}
inline cudaGraphExec_t instantiate_or_null(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr;
  return e;
}
namespace detail {
inline void safe_destroy(cudaGraphExec_t& e) {
  if (e) {
    gpu::destroy(e);
    e = nullptr;
  }
}
}  // namespace detail
}  // namespace gpu

namespace app {

// Correct: wrapper instantiate, wrapper destroy.
int run(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (gpu::instantiate(&e, g) != cudaSuccess) return -1;
  cudaGraphLaunch(e, s);
  gpu::destroy(e);
  return 0;
}

// BUG: the success path forgets gpu::destroy.
int run_twice(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (gpu::instantiate(&e, g) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaGraphLaunch(e, s);
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : -2;
}

// Correct: nested-namespace destroy through a reference.
int run_safe(cudaGraph_t g, cudaStream_t s) {
  auto e = gpu::instantiate_or_null(g);
  if (!e) return -1;
  cudaGraphLaunch(e, s);
  gpu::detail::safe_destroy(e);
  return 0;
}

// BUG: destroyed only if the launch succeeded.
int run_once(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = gpu::instantiate_or_null(g); // EXPECT: cudagraph-unpaired-instantiate
  if (!e) return -1;
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    std::puts("launch failed");
    return -2;
  }
  gpu::destroy(e);
  return 0;
}

}  // namespace app

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  app::run(g, s);
  app::run_twice(g, s);
  app::run_safe(g, s);
  app::run_once(g, s);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  return 0;
}
