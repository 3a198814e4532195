// Handle null checks instead of status checks.
#include <cuda_runtime.h>
#include <cstdio>

// Correct: a null exec means nothing was created.
void run_null_checked(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0);
  if (e == nullptr)
    return;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Correct: early failure returns -1 before anything exists.
int run_null_checked2(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = NULL;
  (void)cudaGraphInstantiate(&e, g, 0);
  if (!e) {
    fprintf(stderr, "no exec\n");
    return -1;
  }
  int rc = cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
  cudaGraphExecDestroy(e);
  return rc;
}

// Buggy: the non-null path launches but never destroys.
void run_if_nonnull(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e)
    cudaGraphLaunch(e, s);
}

// Correct: release guarded by a non-null check.
void run_guarded_release(cudaGraph_t g, cudaStream_t s, bool launch) {
  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0);
  if (launch && e != nullptr)
    cudaGraphLaunch(e, s);
  if (e != nullptr)
    cudaGraphExecDestroy(e);
}
