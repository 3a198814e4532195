// Debug-only code paths guarded by compile-time constants.
#include <cuda_runtime.h>
#include <cstdio>

constexpr bool kDebug = false;
constexpr bool kDumpGraphs = false;
static constexpr int kVerbosity = 0;

static void dump(cudaGraph_t g, const char* name) {
  cudaGraphDebugDotPrint(g, name, 0);
}

// Correct in this build: the early return that skips the destroy lives in
// an `if (kDebug)` block that is compiled out by the constant.
int step(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  if (kDebug) {
    dump(g, "/tmp/step.dot");
    std::puts("debug: dumped graph, skipping launch");
    return 0;
  }
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return 0;
}

// Correct: `if constexpr` flavour.
int step_constexpr(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  if constexpr (kDumpGraphs) {
    dump(g, "/tmp/step2.dot");
    return 1;
  }
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return 0;
}

// Correct: the debug block instantiates its own probe exec and destroys it;
// the main exec is destroyed on every path.
int step_verbose(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1;
  if (kVerbosity > 1) {
    cudaGraphExec_t probe;
    if (cudaGraphInstantiate(&probe, g, 0) == cudaSuccess) {
      std::puts("probe ok");
      cudaGraphExecDestroy(probe);
    }
  }
  auto err = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return err == cudaSuccess ? 0 : -2;
}

// BUG: the non-debug else-branch is the live one and it returns without
// destroying.
int step_bug(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  if (kDebug) {
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    return 0;
  } else {
    return cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
  }
}

int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  step(g, s);
  step_constexpr(g, s);
  step_verbose(g, s);
  step_bug(g, s);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  return 0;
}
