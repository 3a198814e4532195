// Code written against CUDA 11: five-argument cudaGraphInstantiate with an error log.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void gemv(const float* A, const float* x, float* y, int m, int n) {}

#define LOG_BUF 2048

// Correct: log buffer consulted on failure; exec destroyed on success.
int legacy_gemv(cudaStream_t s, const float* A, const float* x, float* y, int m, int n) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  gemv<<<m, 128, 0, s>>>(A, x, y, m, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  cudaGraphNode_t err_node = nullptr;
  char log[LOG_BUF];
  if (cudaGraphInstantiate(&exec, g, &err_node, log, LOG_BUF) != cudaSuccess) {
    std::fprintf(stderr, "instantiate failed: %s\n", log);
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return 0;
}

// Buggy: the five-argument form with a failing launch path.
int legacy_gemv_v2(cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0);  // EXPECT: cudagraph-unpaired-instantiate
  if (st != cudaSuccess) return -1;
  st = cudaGraphLaunch(exec, s);
  if (st != cudaSuccess) {
    std::fprintf(stderr, "launch: %s\n", cudaGetErrorString(st));
    return -2;
  }
  cudaGraphExecDestroy(exec);
  return 0;
}

// Buggy: legacy global-exec pattern; a local is instantiated each call and stored only sometimes.
static cudaGraphExec_t s_cached = nullptr;
void legacy_cache(cudaGraph_t g, bool first_call) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0);  // EXPECT: cudagraph-unpaired-instantiate
  if (first_call) s_cached = exec;
}

// Correct: legacy "update or re-instantiate" idiom (CUDA 11.x signature of update is emulated with result info).
void legacy_update(cudaGraphExec_t* execp, cudaGraph_t g) {
  cudaGraphExecUpdateResultInfo info;
  if (*execp != nullptr && cudaGraphExecUpdate(*execp, g, &info) == cudaSuccess) return;
  if (*execp != nullptr) cudaGraphExecDestroy(*execp);
  cudaGraphInstantiate(execp, g, nullptr, nullptr, 0);
}

// Correct: five-arg instantiate, immediately destroy the graph then the exec.
void legacy_one_shot(cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, NULL, NULL, 0) != cudaSuccess) return;
  cudaGraphDestroy(g);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
}
