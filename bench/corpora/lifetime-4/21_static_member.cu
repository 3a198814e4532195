// Execs stored in static members / function-local statics / globals.
#include <cuda_runtime.h>
#include <mutex>

class GraphRegistry {
public:
  static cudaError_t init(cudaGraph_t g) {
    if (s_exec) return cudaSuccess;
    return cudaGraphInstantiate(&s_exec, g, 0);
  }
  static cudaError_t init_tmp(cudaGraph_t g) {
    cudaGraphExec_t tmp = nullptr;
    cudaError_t e = cudaGraphInstantiate(&tmp, g, 0);
    if (e == cudaSuccess) s_backup = tmp;
    return e;
  }
  static void shutdown() {
    if (s_exec) cudaGraphExecDestroy(s_exec);
    if (s_backup) cudaGraphExecDestroy(s_backup);
    s_exec = s_backup = nullptr;
  }
private:
  static inline cudaGraphExec_t s_exec = nullptr;
  static inline cudaGraphExec_t s_backup = nullptr;
};

cudaGraphExec_t shared_exec(cudaGraph_t g) {
  static cudaGraphExec_t exec = nullptr;
  static std::once_flag once;
  std::call_once(once, [&] { cudaGraphInstantiate(&exec, g, 0); });
  return exec;
}

cudaGraphExec_t g_main_exec;

bool init_global(cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
  g_main_exec = e;
  return true;
}

// BUG: a function-local non-static handle shadows the intent; leaks on every call.
bool init_global_wrong(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t g_main_exec_local;
  if (cudaGraphInstantiate(&g_main_exec_local, g, 0) != cudaSuccess) return false; // EXPECT: cudagraph-unpaired-instantiate
  return cudaGraphLaunch(g_main_exec_local, s) == cudaSuccess;
}
