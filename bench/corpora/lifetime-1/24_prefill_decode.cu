// Separate prefill and decode graphs.
#include <cuda_runtime.h>
#include <cstdio>

// Buggy: decode exec is never destroyed (copy-paste of the prefill cleanup).
void serve_one(cudaGraph_t prefill, cudaGraph_t decode, cudaStream_t s, int new_tokens) {
  cudaGraphExec_t prefill_exec, decode_exec;
  cudaGraphInstantiate(&prefill_exec, prefill, 0);
  cudaGraphInstantiate(&decode_exec, decode, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(prefill_exec, s);
  for (int t = 0; t < new_tokens; ++t)
    cudaGraphLaunch(decode_exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(prefill_exec);
}

// Buggy: both statuses checked together; whichever succeeded leaks when the
// other failed.
cudaError_t serve_checked(cudaGraph_t prefill, cudaGraph_t decode, cudaStream_t s) {
  cudaGraphExec_t pe, de;
  cudaError_t e1 = cudaGraphInstantiate(&pe, prefill, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaError_t e2 = cudaGraphInstantiate(&de, decode, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e1 != cudaSuccess || e2 != cudaSuccess)
    return e1 != cudaSuccess ? e1 : e2;
  cudaGraphLaunch(pe, s);
  cudaGraphLaunch(de, s);
  cudaGraphExecDestroy(pe);
  cudaGraphExecDestroy(de);
  return cudaSuccess;
}

// Correct: sequential checks with unwinding.
cudaError_t serve_ok(cudaGraph_t prefill, cudaGraph_t decode, cudaStream_t s) {
  cudaGraphExec_t pe, de;
  cudaError_t st = cudaGraphInstantiate(&pe, prefill, 0);
  if (st != cudaSuccess)
    return st;
  st = cudaGraphInstantiate(&de, decode, 0);
  if (st != cudaSuccess) {
    cudaGraphExecDestroy(pe);
    return st;
  }
  cudaGraphLaunch(pe, s);
  cudaGraphLaunch(de, s);
  cudaGraphExecDestroy(de);
  cudaGraphExecDestroy(pe);
  return cudaSuccess;
}

// Correct: both handed back through out-params.
bool build_pair(cudaGraph_t prefill, cudaGraph_t decode, cudaGraphExec_t *pe,
                cudaGraphExec_t *de) {
  if (cudaGraphInstantiate(pe, prefill, 0) != cudaSuccess)
    return false;
  if (cudaGraphInstantiate(de, decode, 0) != cudaSuccess) {
    cudaGraphExecDestroy(*pe);
    *pe = nullptr;
    return false;
  }
  return true;
}
