// Recursive same-file helpers that build and tear down exec trees.
// CORRECT: helpers destroy their parameter or store into an out-parameter.
#include <cuda_runtime.h>
#include <vector>
#include <cstddef>

static void destroy_exec(cudaGraphExec_t e) {
  if (e != nullptr) cudaGraphExecDestroy(e);
}

static void destroy_from(std::vector<cudaGraphExec_t> &v, std::size_t i) {
  if (i >= v.size()) return;
  destroy_exec(v[i]);
  destroy_from(v, i + 1);
}

// Builds one exec per level, recursing until depth is exhausted.
static bool build_levels(const std::vector<cudaGraph_t> &graphs, std::size_t level,
                         std::vector<cudaGraphExec_t> *out) {
  if (level == graphs.size()) return true;
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, graphs[level], 0) != cudaSuccess) return false;
  out->push_back(e);
  return build_levels(graphs, level + 1, out);
}

int multigrid(const std::vector<cudaGraph_t> &levels, cudaStream_t s) {
  std::vector<cudaGraphExec_t> execs;
  bool ok = build_levels(levels, 0, &execs);
  if (ok) {
    for (cudaGraphExec_t e : execs) cudaGraphLaunch(e, s);
    cudaStreamSynchronize(s);
  }
  destroy_from(execs, 0);
  return ok ? 0 : 1;
}

// Recursion on a countdown: instantiate, launch, destroy via helper, recurse.
static int vcycle(cudaGraph_t g, cudaStream_t s, int depth) {
  if (depth == 0) return 0;
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  cudaGraphLaunch(e, s);
  int inner = vcycle(g, s, depth - 1);
  destroy_exec(e);
  return inner < 0 ? inner : inner + 1;
}

int run_vcycle(cudaGraph_t g, cudaStream_t s) { return vcycle(g, s, 4); }
