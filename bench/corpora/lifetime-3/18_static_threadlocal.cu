// Process-wide and per-thread exec caches.
// CORRECT: execs escape into static / thread_local storage.
#include <cuda_runtime.h>
#include <unordered_map>
#include <mutex>

cudaError_t launch_singleton(cudaGraph_t g, cudaStream_t s) {
  static cudaGraphExec_t exec = nullptr;
  static std::once_flag once;
  static cudaError_t init_status = cudaSuccess;
  std::call_once(once, [&] { init_status = cudaGraphInstantiate(&exec, g, 0); });
  if (init_status != cudaSuccess) return init_status;
  return cudaGraphLaunch(exec, s);
}

struct TlsCache {
  std::unordered_map<cudaGraph_t, cudaGraphExec_t> execs;
  ~TlsCache() {
    for (auto &kv : execs) cudaGraphExecDestroy(kv.second);
  }
};

static thread_local TlsCache tls_cache;

cudaError_t launch_cached(cudaGraph_t g, cudaStream_t s) {
  auto it = tls_cache.execs.find(g);
  if (it == tls_cache.execs.end()) {
    cudaGraphExec_t e = nullptr;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    if (st != cudaSuccess) return st;
    it = tls_cache.execs.emplace(g, e).first;
  }
  return cudaGraphLaunch(it->second, s);
}

static cudaGraphExec_t last_exec_static;

cudaError_t remember(cudaGraph_t g) {
  static thread_local cudaGraphExec_t tl_exec = nullptr;
  if (tl_exec) cudaGraphExecDestroy(tl_exec);
  tl_exec = nullptr;
  cudaError_t st = cudaGraphInstantiate(&tl_exec, g, 0);
  if (st == cudaSuccess) last_exec_static = tl_exec;
  return st;
}
