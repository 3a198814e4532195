// Driver API graph execution (cuGraph*), e.g. from a JIT runtime.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CU_CHECK(x)                                                            \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *msg_ = nullptr;                                              \
      cuGetErrorString(r_, &msg_);                                             \
      fprintf(stderr, "%s failed: %s\n", #x, msg_ ? msg_ : "?");               \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#define CU_TRY(x)                                                              \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS)                                                    \
      return r_;                                                               \
  } while (0)

// Correct.
void drv_run(CUgraph g, CUstream s, int reps) {
  CUgraphExec exec;
  CU_CHECK(cuGraphInstantiate(&exec, g, 0));
  for (int i = 0; i < reps; ++i)
    CU_CHECK(cuGraphLaunch(exec, s));
  CU_CHECK(cuStreamSynchronize(s));
  CU_CHECK(cuGraphExecDestroy(exec));
}

// Buggy: CU_TRY returns the sync error with the exec alive.
CUresult drv_run_try(CUgraph g, CUstream s) {
  CUgraphExec exec;
  CU_TRY(cuGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  CU_TRY(cuGraphLaunch(exec, s));
  CU_TRY(cuStreamSynchronize(s));
  return cuGraphExecDestroy(exec);
}

// Buggy: instantiate-with-params and upload; upload failure leaks.
CUresult drv_prepare(CUgraph g, CUstream s, CUgraphExec *out) {
  CUDA_GRAPH_INSTANTIATE_PARAMS params = {};
  params.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  params.hUploadStream = s;
  CUgraphExec exec = nullptr;
  CUresult r = cuGraphInstantiateWithParams(&exec, g, &params); // EXPECT: cudagraph-unpaired-instantiate
  if (r != CUDA_SUCCESS)
    return r;
  r = cuStreamSynchronize(s);
  if (r != CUDA_SUCCESS)
    return r;
  *out = exec;
  return CUDA_SUCCESS;
}

// Correct: the driver-API goto variant.
int drv_selftest(CUgraph g, CUstream s) {
  int rc = -1;
  CUgraphExec exec = nullptr;
  if (cuGraphInstantiateWithFlags(&exec, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != CUDA_SUCCESS)
    goto done;
  if (cuGraphLaunch(exec, s) != CUDA_SUCCESS)
    goto done;
  if (cuStreamSynchronize(s) != CUDA_SUCCESS)
    goto done;
  rc = 0;
done:
  if (exec != nullptr)
    cuGraphExecDestroy(exec);
  return rc;
}

struct DrvGraph {
  CUgraphExec exec = nullptr;
  ~DrvGraph() {
    if (exec)
      cuGraphExecDestroy(exec);
  }
  // Correct: into a member.
  bool init(CUgraph g) { return cuGraphInstantiate(&exec, g, 0) == CUDA_SUCCESS; }
};
