// Ownership moves: std::swap, std::exchange, out-references.
#include <cuda_runtime.h>
#include <utility>

// Correct: swap the new exec into the member slot, destroy the old one.
struct HotSwap {
  cudaGraphExec_t live = nullptr;
  void replace(cudaGraph_t g) {
    cudaGraphExec_t next = nullptr;
    if (cudaGraphInstantiate(&next, g, 0) != cudaSuccess)
      return;
    std::swap(live, next);
    if (next)
      cudaGraphExecDestroy(next);
  }
  ~HotSwap() {
    if (live)
      cudaGraphExecDestroy(live);
  }
};

// Correct: exchange into a reference parameter.
void install(cudaGraphExec_t &slot, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  cudaGraphExec_t prev = std::exchange(slot, e);
  if (prev)
    cudaGraphExecDestroy(prev);
}

// Correct: assigned to a reference out-parameter.
bool make(cudaGraph_t g, cudaGraphExec_t &out) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  out = e;
  return true;
}

// Buggy: copied into a local alias, the alias is reassigned, nothing is freed.
void alias_then_drop(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s) {
  cudaGraphExec_t a, b;
  cudaGraphInstantiate(&a, g1, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphInstantiate(&b, g2, 0);
  cudaGraphExec_t cur = a;
  cudaGraphLaunch(cur, s);
  cur = b;
  cudaGraphLaunch(cur, s);
  cudaGraphExecDestroy(cur);
}

// Correct: ping-pong between two execs, both destroyed at the end.
void ping_pong(cudaGraph_t g1, cudaGraph_t g2, cudaStream_t s, int n) {
  cudaGraphExec_t x[2];
  cudaGraphInstantiate(&x[0], g1, 0);
  cudaGraphInstantiate(&x[1], g2, 0);
  for (int i = 0; i < n; ++i)
    cudaGraphLaunch(x[i & 1], s);
  cudaGraphExecDestroy(x[0]);
  cudaGraphExecDestroy(x[1]);
}
