// Feature flags decide which code is compiled.
#include <cuda_runtime.h>
#include <cstdio>

#define USE_CUDA_GRAPHS 1
#define GRAPH_CACHE_ENABLED 0
// NDEBUG intentionally left undefined in this build.

struct Engine {
  cudaStream_t stream;
  float* ws;
  size_t ws_bytes;
#if GRAPH_CACHE_ENABLED
  cudaGraphExec_t cached;
#endif
};

static cudaGraph_t capture_step(Engine& e) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(e.stream, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(e.ws, 0, e.ws_bytes, e.stream);
  cudaStreamEndCapture(e.stream, &g);
  return g;
}

// Correct in the compiled configuration: the cache branch (which would leave
// the exec alive in a field) is not taken, the #else branch destroys.
int step(Engine& e) {
#if USE_CUDA_GRAPHS
  cudaGraph_t g = capture_step(e);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(exec, e.stream);
#if GRAPH_CACHE_ENABLED
  e.cached = exec;
#else
  cudaStreamSynchronize(e.stream);
  cudaGraphExecDestroy(exec);
#endif
  return 0;
#else
  cudaMemsetAsync(e.ws, 0, e.ws_bytes, e.stream);
  return 0;
#endif
}

// Correct: the debug validation branch is compiled (NDEBUG undefined) and
// destroys before bailing out.
int step_checked(Engine& e, int reps) {
  cudaGraph_t g = capture_step(e);
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return -1;
#ifndef NDEBUG
  if (reps <= 0) {
    std::fprintf(stderr, "bad reps %d\n", reps);
    cudaGraphExecDestroy(exec);
    return -2;
  }
#endif
  for (int i = 0; i < reps; ++i) cudaGraphLaunch(exec, e.stream);
  cudaGraphExecDestroy(exec);
  return 0;
}

#ifdef GRAPH_LEGACY_PATH
// Not compiled: would leak, but is preprocessed out.
int legacy(Engine& e) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, capture_step(e), 0);
  return cudaGraphLaunch(exec, e.stream);
}
#endif

#if defined(__CUDACC__) || defined(__CUDA__)
// Correct: compiled in CUDA mode; exec returned to the caller.
cudaGraphExec_t make_step_exec(Engine& e) {
  cudaGraph_t g = capture_step(e);
  cudaGraphExec_t exec = nullptr;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) exec = nullptr;
  cudaGraphDestroy(g);
  return exec;
}
#endif

int main() {
  Engine e{};
  cudaStreamCreate(&e.stream);
  e.ws_bytes = 1 << 16;
  cudaMalloc(&e.ws, e.ws_bytes);
  step(e);
  step_checked(e, 3);
  cudaGraphExec_t x = make_step_exec(e);
  if (x) cudaGraphExecDestroy(x);
  cudaFree(e.ws);
  cudaStreamDestroy(e.stream);
  return 0;
}
