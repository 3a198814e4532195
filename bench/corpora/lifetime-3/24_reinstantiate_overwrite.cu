// Shape-dependent re-capture in a serving loop.
// BUGGY: re-instantiation over a live exec, and a helper-made exec that leaks.
#include <cuda_runtime.h>

cudaGraph_t capture_for(int batch, cudaStream_t s);

int serve_loop(const int *batches, int n, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  int cur = -1;
  for (int i = 0; i < n; ++i) {
    if (batches[i] != cur) {
      cudaGraph_t g = capture_for(batches[i], s);
      if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
        cudaGraphDestroy(g);
        return -1;
      }
      cudaGraphDestroy(g);
      cur = batches[i];
    }
    cudaGraphLaunch(e, s);
  }
  if (e) cudaGraphExecDestroy(e);
  return 0;
}

static cudaGraphExec_t make_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr;
  return e;
}

int warmup(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = make_exec(g); // EXPECT: cudagraph-unpaired-instantiate
  if (!e) return 1;
  cudaGraphLaunch(e, s);
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 2;
}

// CORRECT: helper-made exec destroyed by the caller.
int warmup_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = make_exec(g);
  if (!e) return 1;
  cudaGraphLaunch(e, s);
  cudaError_t st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(e);
  return st == cudaSuccess ? 0 : 2;
}

// CORRECT: re-instantiation only after destroying the previous exec.
int serve_loop_ok(const int *batches, int n, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  int cur = -1;
  for (int i = 0; i < n; ++i) {
    if (batches[i] != cur) {
      if (e) {
        cudaGraphExecDestroy(e);
        e = nullptr;
      }
      cudaGraph_t g = capture_for(batches[i], s);
      cudaError_t st = cudaGraphInstantiate(&e, g, 0);
      cudaGraphDestroy(g);
      if (st != cudaSuccess) return -1;
      cur = batches[i];
    }
    cudaGraphLaunch(e, s);
  }
  if (e) cudaGraphExecDestroy(e);
  return 0;
}
