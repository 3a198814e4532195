// GCC/Clang __attribute__((cleanup)) scope guards for execs.
// CORRECT: the cleanup function runs on every scope exit.
#include <cuda_runtime.h>
#include <cstdio>

static void exec_cleanup(cudaGraphExec_t *p) {
  if (*p) cudaGraphExecDestroy(*p);
}
static void graph_cleanup(cudaGraph_t *p) {
  if (*p) cudaGraphDestroy(*p);
}
#define AUTO_EXEC __attribute__((cleanup(exec_cleanup))) cudaGraphExec_t
#define AUTO_GRAPH __attribute__((cleanup(graph_cleanup))) cudaGraph_t

int step(cudaStream_t s, int n, bool verbose) {
  AUTO_GRAPH g = nullptr;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) return 1;
  AUTO_EXEC e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return 2;
  for (int i = 0; i < n; ++i) {
    if (cudaGraphLaunch(e, s) != cudaSuccess) return 3;
    if (verbose) std::printf("step %d\n", i);
  }
  if (cudaStreamSynchronize(s) != cudaSuccess) return 4;
  return 0;
}

int two_guards(cudaGraph_t a, cudaGraph_t b, cudaStream_t s) {
  __attribute__((cleanup(exec_cleanup))) cudaGraphExec_t ea = nullptr;
  __attribute__((cleanup(exec_cleanup))) cudaGraphExec_t eb = nullptr;
  if (cudaGraphInstantiate(&ea, a, 0) != cudaSuccess) return 1;
  if (cudaGraphInstantiate(&eb, b, 0) != cudaSuccess) return 2;
  cudaGraphLaunch(ea, s);
  cudaGraphLaunch(eb, s);
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 3;
}
