// Retry loops around instantiate/upload.
#include <cuda_runtime.h>
#include <cstdio>

// Buggy: when the upload fails, the next attempt instantiates over the exec
// of the previous attempt.
cudaGraphExec_t instantiate_uploaded_retry(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      continue;
    if (cudaGraphUpload(e, s) == cudaSuccess)
      return e;
    fprintf(stderr, "upload attempt %d failed\n", attempt);
  }
  return nullptr;
}

// Correct: destroy before retrying.
cudaGraphExec_t instantiate_uploaded_retry_ok(cudaGraph_t g, cudaStream_t s) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      continue;
    if (cudaGraphUpload(e, s) == cudaSuccess)
      return e;
    cudaGraphExecDestroy(e);
  }
  return nullptr;
}

// Correct: retry only on instantiation failure (nothing live yet).
cudaError_t instantiate_until_ok(cudaGraph_t g, cudaGraphExec_t *out, int max_tries) {
  cudaError_t st = cudaErrorUnknown;
  cudaGraphExec_t e = nullptr;
  for (int i = 0; i < max_tries; ++i) {
    st = cudaGraphInstantiate(&e, g, 0);
    if (st == cudaSuccess)
      break;
    cudaGetLastError();
  }
  if (st != cudaSuccess)
    return st;
  *out = e;
  return cudaSuccess;
}

// Correct: do/while retry that destroys on each failed validation.
bool validated(cudaGraph_t g, cudaStream_t s, cudaGraphExec_t *out) {
  int tries = 0;
  do {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return false;
    if (cudaGraphLaunch(e, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess) {
      *out = e;
      return true;
    }
    cudaGraphExecDestroy(e);
  } while (++tries < 2);
  return false;
}
