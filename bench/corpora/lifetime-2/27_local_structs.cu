// Execs held in local aggregates and pairs.
#include <cuda_runtime.h>
#include <utility>

struct GraphPair {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

static void destroy_pair(GraphPair& p) {
  if (p.exec) cudaGraphExecDestroy(p.exec);
  if (p.graph) cudaGraphDestroy(p.graph);
  p = GraphPair{};
}

// Correct: local struct, released through a same-file helper.
void run_pair(cudaGraph_t g, cudaStream_t s) {
  GraphPair p;
  p.graph = g;
  if (cudaGraphInstantiate(&p.exec, p.graph, 0) != cudaSuccess) return;
  cudaGraphLaunch(p.exec, s);
  destroy_pair(p);
}

// Buggy: local struct dies with a live exec in it.
void run_pair_leaky(cudaGraph_t g, cudaStream_t s) {
  GraphPair p;
  p.graph = g;
  if (cudaGraphInstantiate(&p.exec, p.graph, 0) != cudaSuccess) return;  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(p.exec, s);
  cudaGraphDestroy(p.graph);
}

// Correct: local struct returned by value.
GraphPair make_pair_graph(cudaGraph_t g) {
  GraphPair p;
  p.graph = g;
  cudaGraphInstantiate(&p.exec, g, 0);
  return p;
}

// Buggy: std::pair holding the exec; only the graph half is destroyed.
void run_std_pair(cudaGraph_t g, cudaStream_t s) {
  std::pair<cudaGraph_t, cudaGraphExec_t> gp{g, nullptr};
  cudaGraphInstantiate(&gp.second, gp.first, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(gp.second, s);
  cudaGraphDestroy(gp.first);
}

// Correct: copy out of a local struct, then destroy the copy.
void run_pair_copy(cudaGraph_t g, cudaStream_t s) {
  GraphPair p;
  cudaGraphInstantiate(&p.exec, g, 0);
  cudaGraphExec_t e = p.exec;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: reassigning a local struct drops the first exec.
void run_pair_reassign(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s) {
  GraphPair p;
  cudaGraphInstantiate(&p.exec, g1, 0);
  cudaGraphLaunch(p.exec, s);
  cudaGraphInstantiate(&p.exec, g2, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(p.exec, s);
  cudaGraphExecDestroy(p.exec);
}
