// Branch-prediction hinted checks, as in hand-tuned inference kernels.
#include <cuda_runtime.h>
#include <cstdio>

#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LIKELY(x) __builtin_expect(!!(x), 1)

#define CK(expr)                                                               \
  do {                                                                         \
    cudaError_t _st = (expr);                                                  \
    if (UNLIKELY(_st != cudaSuccess))                                          \
      return _st;                                                              \
  } while (0)

struct Workspace {
  float *buf;
  size_t bytes;
};

// Buggy: the upload can fail after instantiation.
cudaError_t prepare_and_run(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  CK(cudaGraphUpload(exec, s));
  CK(cudaGraphLaunch(exec, s));
  return cudaGraphExecDestroy(exec);
}

// Correct: the hint macro wraps a status test that releases on failure.
cudaError_t prepare_and_run_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  cudaError_t st = cudaGraphUpload(exec, s);
  if (LIKELY(st == cudaSuccess))
    st = cudaGraphLaunch(exec, s);
  if (UNLIKELY(st != cudaSuccess)) {
    cudaGraphExecDestroy(exec);
    return st;
  }
  return cudaGraphExecDestroy(exec);
}

// Correct: the instantiation result is tested with a hint directly.
cudaError_t run_hinted(cudaGraph_t g, cudaStream_t s, Workspace *ws) {
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
  if (__builtin_expect(st != cudaSuccess, 0))
    return st;
  if (ws && ws->bytes)
    cudaMemsetAsync(ws->buf, 0, ws->bytes, s);
  st = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return st;
}

// Buggy: a workspace-validation early return after instantiation.
cudaError_t run_hinted_leaky(cudaGraph_t g, cudaStream_t s, Workspace *ws) {
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (__builtin_expect(st != cudaSuccess, 0))
    return st;
  if (UNLIKELY(ws == nullptr || ws->bytes == 0))
    return cudaErrorInvalidValue;
  cudaMemsetAsync(ws->buf, 0, ws->bytes, s);
  st = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return st;
}
