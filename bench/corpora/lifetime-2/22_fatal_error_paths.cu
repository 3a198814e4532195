// Check macros that terminate the process (exit/abort/[[noreturn]] logger).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

[[noreturn]] void fatal(const char* file, int line, const char* what);

#define CUDA_CHECK_EXIT(call)                                                   \
  do {                                                                          \
    cudaError_t e_ = (call);                                                    \
    if (e_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(EXIT_FAILURE);                                                  \
    }                                                                           \
  } while (0)

#define CUDA_CHECK_FATAL(call) \
  do { if ((call) != cudaSuccess) fatal(__FILE__, __LINE__, #call); } while (0)

__global__ void nbody(float4* p, float4* v, int n, float dt) {}

// Correct: exit() on error; exec destroyed on the normal path.
void simulate(cudaStream_t s, float4* p, float4* v, int n, int steps) {
  cudaGraph_t g;
  CUDA_CHECK_EXIT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  nbody<<<(n + 255) / 256, 256, 0, s>>>(p, v, n, 0.01f);
  CUDA_CHECK_EXIT(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  CUDA_CHECK_EXIT(cudaGraphInstantiate(&e, g, 0));
  CUDA_CHECK_EXIT(cudaGraphDestroy(g));
  for (int i = 0; i < steps; ++i) CUDA_CHECK_EXIT(cudaGraphLaunch(e, s));
  CUDA_CHECK_EXIT(cudaStreamSynchronize(s));
  CUDA_CHECK_EXIT(cudaGraphExecDestroy(e));
}

// Correct: [[noreturn]] fatal() on error.
void simulate_fatal(cudaStream_t s, cudaGraph_t g, int steps) {
  cudaGraphExec_t e;
  CUDA_CHECK_FATAL(cudaGraphInstantiate(&e, g, 0));
  for (int i = 0; i < steps; ++i) CUDA_CHECK_FATAL(cudaGraphLaunch(e, s));
  CUDA_CHECK_FATAL(cudaGraphExecDestroy(e));
}

// Correct: abort() on an invariant violation after instantiation.
void simulate_checked(cudaStream_t s, cudaGraph_t g, int n) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) std::abort();
  if (n <= 0) {
    std::fprintf(stderr, "bad n\n");
    std::abort();
  }
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: the exit() only happens in debug mode; release builds return.
void simulate_debug_only(cudaStream_t s, cudaGraph_t g, bool debug) {
  cudaGraphExec_t e;
  CUDA_CHECK_EXIT(cudaGraphInstantiate(&e, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    if (debug) std::exit(2);
    return;
  }
  cudaGraphExecDestroy(e);
}

// Buggy: the process exits only on the error path; the success path never destroys.
void simulate_forgot(cudaStream_t s, cudaGraph_t g, int steps) {
  cudaGraphExec_t e;
  CUDA_CHECK_FATAL(cudaGraphInstantiate(&e, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
  for (int i = 0; i < steps; ++i) CUDA_CHECK_FATAL(cudaGraphLaunch(e, s));
  CUDA_CHECK_FATAL(cudaStreamSynchronize(s));
}

// Correct: quick_exit-style termination via a helper that never returns.
[[noreturn]] static void die(const char* msg) {
  std::fputs(msg, stderr);
  std::_Exit(3);
}
void simulate_die(cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) die("instantiate\n");
  if (cudaGraphLaunch(e, s) != cudaSuccess) die("launch\n");
  cudaGraphExecDestroy(e);
}
