// Status handling via switch on cudaError_t.
// BUGGY: one case of the second switch returns with the exec still live.
#include <cuda_runtime.h>
#include <cstdio>

int fallback_eager(cudaStream_t s);

int run_graph(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  switch (st) {
  case cudaSuccess:
    break;
  case cudaErrorNotSupported:
    return fallback_eager(s);
  default:
    std::fprintf(stderr, "instantiate: %s\n", cudaGetErrorString(st));
    return -1;
  }
  cudaGraphLaunch(e, s);
  switch (cudaStreamSynchronize(s)) {
  case cudaSuccess:
    cudaGraphExecDestroy(e);
    return 0;
  case cudaErrorLaunchFailure:
    std::fprintf(stderr, "kernel fault\n");
    return -2;
  default:
    cudaGraphExecDestroy(e);
    return -3;
  }
}

// CORRECT: every case destroys, fallthrough included.
int run_graph_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  switch (cudaGraphInstantiate(&e, g, 0)) {
  case cudaSuccess:
    break;
  case cudaErrorInvalidValue:
  case cudaErrorInvalidResourceHandle:
    return -1;
  default:
    return -2;
  }
  int rc = 0;
  switch (cudaGraphLaunch(e, s)) {
  case cudaErrorNotReady:
    cudaStreamSynchronize(s);
    [[fallthrough]];
  case cudaSuccess:
    rc = cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
    break;
  default:
    rc = 2;
    break;
  }
  cudaGraphExecDestroy(e);
  return rc;
}

int fallback_eager(cudaStream_t s) { return cudaStreamSynchronize(s) == cudaSuccess ? 0 : -4; }
