// Unified memory (cudaMallocManaged) buffers captured into a graph, with
// prefetch nodes captured before the kernel.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void saxpy(float a, const float *x, float *y, int n) {}

static bool ok(cudaError_t e) { return e == cudaSuccess; }

// Correct: exec destroyed on every path after it is created.
bool runManagedSaxpy(int n, int reps) {
  float *x = nullptr, *y = nullptr;
  if (!ok(cudaMallocManaged(&x, n * sizeof(float)))) return false;
  if (!ok(cudaMallocManaged(&y, n * sizeof(float)))) { cudaFree(x); return false; }
  for (int i = 0; i < n; ++i) { x[i] = 1.f; y[i] = 2.f; }

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemPrefetchAsync(x, n * sizeof(float), loc, 0, s);
  cudaMemPrefetchAsync(y, n * sizeof(float), loc, 0, s);
  saxpy<<<(n + 127) / 128, 128, 0, s>>>(2.f, x, y, n);
  cudaGraph_t g = nullptr;
  if (!ok(cudaStreamEndCapture(s, &g))) {
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    return false;
  }
  cudaGraphExec_t exec = nullptr;
  bool good = ok(cudaGraphInstantiate(&exec, g, 0));
  cudaGraphDestroy(g);
  if (good) {
    for (int r = 0; r < reps && good; ++r)
      good = ok(cudaGraphLaunch(exec, s));
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
  }
  cudaStreamDestroy(s);
  cudaFree(x);
  cudaFree(y);
  return good;
}

// Buggy: host-side validation of the managed output happens after the
// replay; a mismatch returns before the exec is destroyed.
int replayAndVerify(float *managedX, float *managedY, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  saxpy<<<(n + 127) / 128, 128, 0, s>>>(3.f, managedX, managedY, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    return -1;
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; ++i) {
    if (managedY[i] != 3.f * managedX[i]) {
      fprintf(stderr, "mismatch at %d\n", i);
      cudaStreamDestroy(s);
      return i + 1;
    }
  }
  cudaGraphExecDestroy(exec);
  cudaStreamDestroy(s);
  return 0;
}

// Correct: immediately destroyed after a one-shot launch (legal).
void oneShot(float *x, float *y, int n, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  saxpy<<<1, 128, 0, s>>>(1.f, x, y, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}
