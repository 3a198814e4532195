// Hurried inference runner: CHECK macros with printf-style varargs.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define LOG_ERR(fmt, ...) std::fprintf(stderr, "[graph] " fmt "\n", ##__VA_ARGS__)

// Returns the error code from the enclosing function on failure.
#define CHECK(call, fmt, ...)                                              \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      LOG_ERR("%s:%d " fmt " -> %s", __FILE__, __LINE__, ##__VA_ARGS__,    \
              cudaGetErrorString(e_));                                     \
      return e_;                                                           \
    }                                                                      \
  } while (0)

// Fatal flavour: aborts the process.
#define CHECK_FATAL(call, ...)                                             \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      LOG_ERR(__VA_ARGS__);                                                \
      std::abort();                                                        \
    }                                                                      \
  } while (0)

static cudaGraph_t build_graph(cudaStream_t s, float* buf, int n) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  cudaMemsetAsync(buf, 0, n * sizeof(float), s);
  cudaStreamEndCapture(s, &g);
  return g;
}

// BUG: a failing launch returns from the CHECK macro with the exec still live.
cudaError_t run_steps(cudaStream_t s, float* buf, int n, int steps) {
  cudaGraph_t g = build_graph(s, buf, n);
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, g, 0), "instantiate n=%d", n); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  for (int i = 0; i < steps; ++i) {
    CHECK(cudaGraphLaunch(exec, s), "launch step %d of %d", i, steps);
  }
  CHECK(cudaStreamSynchronize(s), "sync");
  cudaGraphExecDestroy(exec);
  return cudaSuccess;
}

// Correct: every failure after instantiation is fatal (abort), so no path
// returns with the exec live.
void run_steps_fatal(cudaStream_t s, float* buf, int n, int steps) {
  cudaGraph_t g = build_graph(s, buf, n);
  cudaGraphExec_t exec = nullptr;
  CHECK_FATAL(cudaGraphInstantiate(&exec, g, 0), "instantiate failed n=%d", n);
  cudaGraphDestroy(g);
  for (int i = 0; i < steps; ++i)
    CHECK_FATAL(cudaGraphLaunch(exec, s), "launch %d", i);
  CHECK_FATAL(cudaStreamSynchronize(s), "sync");
  CHECK_FATAL(cudaGraphExecDestroy(exec), "destroy");
}

// Correct: the CHECK that can return happens before instantiation and the
// ones after use a local error variable and fall through to destroy.
cudaError_t run_once(cudaStream_t s, float* buf, int n) {
  CHECK(cudaStreamSynchronize(s), "pre-sync n=%d", n);
  cudaGraph_t g = build_graph(s, buf, n);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0), "instantiate");
  cudaGraphDestroy(g);
  cudaError_t err = cudaGraphLaunch(exec, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  if (err != cudaSuccess) LOG_ERR("run_once failed: %s", cudaGetErrorString(err));
  cudaGraphExecDestroy(exec);
  return err;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* buf = nullptr;
  cudaMalloc(&buf, 1024 * sizeof(float));
  run_steps(s, buf, 1024, 4);
  run_steps_fatal(s, buf, 1024, 4);
  run_once(s, buf, 1024);
  cudaFree(buf);
  cudaStreamDestroy(s);
  return 0;
}
