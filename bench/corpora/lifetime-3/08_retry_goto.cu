// Instantiation with retries, continue/break in loops, goto retry.
// CORRECT: each exec is destroyed before every retry/continue/break exit.
#include <cuda_runtime.h>
#include <vector>

static bool transient(cudaError_t st) {
  return st == cudaErrorMemoryAllocation || st == cudaErrorNotReady;
}

int launch_with_retry(cudaGraph_t g, cudaStream_t s) {
  int attempts = 0;
  cudaGraphExec_t e;
retry:
  if (++attempts > 3) return -1;
  {
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    if (st != cudaSuccess) {
      if (transient(st)) {
        cudaDeviceSynchronize();
        goto retry;
      }
      return -2;
    }
  }
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    cudaGraphExecDestroy(e);
    goto retry;
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  return attempts;
}

int sweep(const std::vector<cudaGraph_t> &graphs, cudaStream_t s, int budget) {
  int done = 0;
  for (cudaGraph_t g : graphs) {
    if (!g) continue;
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) continue;
    if (done >= budget) {
      cudaGraphExecDestroy(e);
      break;
    }
    cudaError_t st = cudaGraphLaunch(e, s);
    if (st == cudaErrorNotReady) {
      cudaGraphExecDestroy(e);
      continue;
    }
    if (st != cudaSuccess) {
      cudaGraphExecDestroy(e);
      break;
    }
    ++done;
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(e);
  }
  return done;
}

int while_retry(cudaGraph_t g, cudaStream_t s) {
  int tries = 0;
  while (true) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
      if (++tries < 5) continue;
      return -1;
    }
    bool ok = cudaGraphLaunch(e, s) == cudaSuccess &&
              cudaStreamSynchronize(s) == cudaSuccess;
    cudaGraphExecDestroy(e);
    if (ok) break;
    if (++tries >= 5) return -1;
  }
  return tries;
}
