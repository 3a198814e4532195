// Code written against CUDA 11: the five-argument cudaGraphInstantiate with an
// error node and a log buffer.
#include <cuda_runtime.h>
#include <cstdio>

#ifndef GRAPH_LOG_SIZE
#define GRAPH_LOG_SIZE 2048
#endif

// Correct: the log is printed on failure, the exec is returned on success.
cudaGraphExec_t instantiate_logged(cudaGraph_t graph) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t error_node = nullptr;
  char log[GRAPH_LOG_SIZE];
  if (cudaGraphInstantiate(&exec, graph, &error_node, log, sizeof(log)) != cudaSuccess) {
    fprintf(stderr, "instantiate failed: %s\n", log);
    return nullptr;
  }
  return exec;
}

// Buggy: the launch error path forgets the exec.
bool run_legacy(cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  if (cudaGraphLaunch(exec, s) != cudaSuccess) {
    fprintf(stderr, "launch failed\n");
    return false;
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  return true;
}

// Version-dependent instantiation: only one branch is compiled.
bool run_portable(cudaGraph_t graph, cudaStream_t s) {
  cudaGraphExec_t exec;
#if CUDART_VERSION >= 12000
  cudaError_t st = cudaGraphInstantiate(&exec, graph, 0);
#else
  cudaError_t st = cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
#endif
  if (st != cudaSuccess)
    return false;
  st = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return st == cudaSuccess;
}

// Buggy: both graphs instantiated with the legacy signature; only the first
// is destroyed.
void run_two_legacy(cudaGraph_t fwd, cudaGraph_t bwd, cudaStream_t s) {
  cudaGraphExec_t f, b;
  cudaGraphInstantiate(&f, fwd, nullptr, nullptr, 0);
  cudaGraphInstantiate(&b, bwd, nullptr, nullptr, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(f, s);
  cudaGraphLaunch(b, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(f);
}
