// Loops over graphs, early `continue` after destroy.
#include <cuda_runtime.h>
#include <vector>

int warm_all(const std::vector<cudaGraph_t> &graphs, cudaStream_t s,
             std::vector<cudaGraphExec_t> &ready) {
  int failures = 0;
  for (cudaGraph_t g : graphs) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {
      ++failures;
      continue;
    }
    if (cudaGraphUpload(e, s) != cudaSuccess) {
      cudaGraphExecDestroy(e);
      ++failures;
      continue;
    }
    ready.push_back(e);
  }
  return failures;
}

int launch_each(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  int ok = 0;
  for (size_t i = 0; i < graphs.size(); ++i) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, graphs[i], 0) != cudaSuccess)
      continue;
    cudaError_t st = cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    if (st != cudaSuccess)
      continue;
    ++ok;
  }
  return ok;
}

// BUG: `continue` on upload failure skips the destroy.
int launch_each_leaky(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  int ok = 0;
  for (cudaGraph_t g : graphs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      continue;
    if (cudaGraphUpload(e, s) != cudaSuccess)
      continue;
    ok += cudaGraphLaunch(e, s) == cudaSuccess;
    cudaGraphExecDestroy(e);
  }
  return ok;
}
