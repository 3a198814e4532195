// Loops that (re)instantiate graphs, e.g. sweeping sequence lengths.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

// Buggy: each iteration instantiates over the previous exec.
void sweep_seq_lens(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (cudaGraphInstantiate(&exec, graphs[i], 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      break;
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

// Correct: destroy the previous one first.
void sweep_seq_lens_ok(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (exec) {
      cudaGraphExecDestroy(exec);
      exec = nullptr;
    }
    if (cudaGraphInstantiate(&exec, graphs[i], 0) != cudaSuccess)
      break;
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

// Correct: per-iteration exec, destroyed at the end of each iteration,
// `break` taken only when nothing was created.
int time_each(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  int ok = 0;
  for (cudaGraph_t g : graphs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      break;
    if (cudaGraphLaunch(e, s) == cudaSuccess)
      ++ok;
    cudaGraphExecDestroy(e);
  }
  return ok;
}

// Buggy: `continue` skips the destroy for zero-step entries.
void replay_schedule(const std::vector<cudaGraph_t> &graphs,
                     const std::vector<int> &steps, cudaStream_t s) {
  for (size_t i = 0; i < graphs.size(); ++i) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, graphs[i], 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      continue;
    if (steps[i] == 0)
      continue;
    for (int k = 0; k < steps[i]; ++k)
      cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
  }
}

// Correct: while loop with a retry counter; nothing is live when retrying.
bool instantiate_with_retry(cudaGraph_t g, cudaGraphExec_t *out) {
  int tries = 3;
  while (tries-- > 0) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) {
      *out = e;
      return true;
    }
    cudaGetLastError();
  }
  return false;
}
