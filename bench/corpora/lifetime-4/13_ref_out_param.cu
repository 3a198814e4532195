// Output through reference parameters.
#include <cuda_runtime.h>

cudaError_t build_exec(cudaGraph_t g, cudaGraphExec_t &out) {
  return cudaGraphInstantiate(&out, g, 0);
}

bool build_exec_checked(cudaGraph_t g, cudaGraphExec_t &out) {
  cudaGraphExec_t tmp = nullptr;
  if (cudaGraphInstantiate(&tmp, g, cudaGraphInstantiateFlagUpload) != cudaSuccess)
    return false;
  out = tmp;
  return true;
}

void build_ptr(cudaGraph_t g, cudaGraphExec_t *out, cudaError_t *err) {
  cudaGraphExec_t tmp;
  *err = cudaGraphInstantiate(&tmp, g, 0);
  if (*err == cudaSuccess)
    *out = tmp;
}

cudaError_t caller(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = build_exec(g, e);
  if (st != cudaSuccess) return st;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st;
}

bool caller_checked(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (!build_exec_checked(g, e)) return false;
  bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
  cudaGraphExecDestroy(e);
  return ok;
}

// BUG: the exec out of the same-file helper is never destroyed.
bool caller_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (!build_exec_checked(g, e)) return false; // EXPECT: cudagraph-unpaired-instantiate
  return cudaGraphLaunch(e, s) == cudaSuccess;
}
