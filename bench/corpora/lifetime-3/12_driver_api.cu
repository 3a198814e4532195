// Driver API: CUresult, cuGetErrorString, cuGraphInstantiate / WithParams.
// CORRECT: every successful cuGraphInstantiate is paired with cuGraphExecDestroy.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CU_TRY(expr)                                                       \
  do {                                                                     \
    CUresult _r = (expr);                                                  \
    if (_r != CUDA_SUCCESS) {                                              \
      const char *_m = nullptr;                                            \
      cuGetErrorString(_r, &_m);                                           \
      std::fprintf(stderr, "%s: %s\n", #expr, _m ? _m : "?");              \
      std::abort();                                                        \
    }                                                                      \
  } while (0)

static const char *err(CUresult r) {
  const char *m = nullptr;
  return cuGetErrorString(r, &m) == CUDA_SUCCESS && m ? m : "unknown";
}

CUresult run_driver(CUgraph g, CUstream s, int iters) {
  CUgraphExec ex = nullptr;
  CUresult r = cuGraphInstantiate(&ex, g, 0);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "instantiate: %s\n", err(r));
    return r;
  }
  for (int i = 0; i < iters; ++i) {
    r = cuGraphLaunch(ex, s);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "launch %d: %s\n", i, err(r));
      break;
    }
  }
  CUresult sync = cuStreamSynchronize(s);
  cuGraphExecDestroy(ex);
  return r != CUDA_SUCCESS ? r : sync;
}

void run_driver_abort_on_error(CUgraph g, CUstream s) {
  CUgraphExec ex;
  CU_TRY(cuGraphInstantiate(&ex, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
  CU_TRY(cuGraphLaunch(ex, s));  // abort() on failure: not a leak
  CU_TRY(cuStreamSynchronize(s));
  CU_TRY(cuGraphExecDestroy(ex));
}

CUresult run_with_params(CUgraph g, CUstream s) {
  CUDA_GRAPH_INSTANTIATE_PARAMS p = {};
  p.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  p.hUploadStream = s;
  CUgraphExec ex = nullptr;
  CUresult r = cuGraphInstantiateWithParams(&ex, g, &p);
  if (r != CUDA_SUCCESS || p.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS)
    return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
  r = cuGraphLaunch(ex, s);
  cuGraphExecDestroy(ex);
  return r;
}
