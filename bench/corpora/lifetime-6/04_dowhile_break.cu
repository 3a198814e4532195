// do { ... } while (0) with break as poor man's goto.
#include <cuda_runtime.h>
#include <cstdio>

#define BREAK_ON_ERR(x)          \
  if ((x) != cudaSuccess) {      \
    std::puts("failed: " #x);    \
    break;                       \
  }

#define TRY_BLOCK do
#define END_TRY while (0)

static cudaGraph_t capture_copy(cudaStream_t s, void* dst, const void* src, size_t n) {
  cudaGraph_t g = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return nullptr;
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) return nullptr;
  return g;
}

// Correct: the exec is destroyed after the do/while regardless of where we
// broke out.
int copy_many(cudaStream_t s, void* dst, const void* src, size_t n, int reps) {
  cudaGraph_t g = capture_copy(s, dst, src, n);
  if (!g) return -1;
  cudaGraphExec_t exec = nullptr;
  int rc = -1;
  TRY_BLOCK {
    BREAK_ON_ERR(cudaGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < reps; ++i) {
      if (cudaGraphLaunch(exec, s) != cudaSuccess) break;  // only leaves the for
    }
    BREAK_ON_ERR(cudaStreamSynchronize(s));
    rc = 0;
  } END_TRY;
  if (exec) cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return rc;
}

// Correct: nested do/while(0); inner break falls into the outer block which
// destroys before its own break.
int copy_twice(cudaStream_t s, void* dst, const void* src, size_t n) {
  cudaGraph_t g = capture_copy(s, dst, src, n);
  if (!g) return -1;
  int rc = 0;
  do {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) { rc = -2; break; }
    do {
      BREAK_ON_ERR(cudaGraphLaunch(e, s));
      BREAK_ON_ERR(cudaGraphLaunch(e, s));
    } while (0);
    cudaGraphExecDestroy(e);
    if (cudaStreamSynchronize(s) != cudaSuccess) { rc = -3; break; }
  } while (0);
  cudaGraphDestroy(g);
  return rc;
}

// Correct: instantiate + destroy straight away just to validate the graph.
bool validate(cudaGraph_t g) {
  cudaGraphExec_t probe;
  do {
    if (cudaGraphInstantiate(&probe, g, 0) != cudaSuccess) break;
    cudaGraphExecDestroy(probe);
    return true;
  } while (0);
  return false;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  void *a = nullptr, *b = nullptr;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  copy_many(s, b, a, 1 << 20, 10);
  copy_twice(s, a, b, 1 << 20);
  cudaGraph_t g = capture_copy(s, a, b, 64);
  if (g) {
    std::printf("valid=%d\n", (int)validate(g));
    cudaGraphDestroy(g);
  }
  cudaFree(a);
  cudaFree(b);
  cudaStreamDestroy(s);
  return 0;
}
