// assert(status == cudaSuccess) and [[noreturn]] fatal helpers.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

[[noreturn]] static void die(const char *what, cudaError_t e) {
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  std::abort();
}

void run_asserted(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t status = cudaGraphInstantiate(&exec, g, 0);
  assert(status == cudaSuccess);
  status = cudaGraphLaunch(exec, s);
  assert(status == cudaSuccess);
  cudaGraphExecDestroy(exec);
}

void run_or_die(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  if (e != cudaSuccess) die("instantiate", e);
  if ((e = cudaGraphLaunch(exec, s)) != cudaSuccess) die("launch", e);
  cudaGraphExecDestroy(exec);
}

void run_or_exit(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) std::exit(1);
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    std::fputs("launch failed\n", stderr);
    std::exit(2);
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
}

// BUG: on a sync error it logs and returns, the exec stays alive.
void run_soft(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaError_t status = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  assert(status == cudaSuccess);
  cudaGraphLaunch(exec, s);
  if (cudaStreamSynchronize(s) != cudaSuccess) {
    std::fputs("sync failed\n", stderr);
    return;
  }
  cudaGraphExecDestroy(exec);
}
