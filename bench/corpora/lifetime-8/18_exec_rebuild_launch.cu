// Rebuilding a cached captured exec when the batch size changes.
// launch_batch_buggy destroys the stale exec but does not reset the member, so the
// "is there an exec?" test still passes and the destroyed exec is launched.
#include <cuda_runtime.h>

__global__ void step(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}

struct Runner {
  cudaGraphExec_t exec = nullptr;
  int batch = 0;
};

static cudaError_t capture(float *x, int n, cudaStream_t s, cudaGraph_t *g) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  step<<<(n + 127) / 128, 128, 0, s>>>(x, n);
  return cudaStreamEndCapture(s, g);
}

cudaError_t launch_batch_buggy(Runner *r, float *x, int n, cudaStream_t s) {
  if (r->exec && r->batch != n) {
    cudaGraphExecDestroy(r->exec);
  }
  if (!r->exec) {
    cudaGraph_t g;
    cudaError_t st = capture(x, n, s, &g);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&r->exec, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) {
      r->exec = nullptr;
      return st;
    }
    r->batch = n;
  }
  return cudaGraphLaunch(r->exec, s); // EXPECT: cudagraph-use-after-dealloc
}

cudaError_t launch_batch(Runner *r, float *x, int n, cudaStream_t s) {
  if (r->exec && r->batch != n) {
    cudaGraphExecDestroy(r->exec);
    r->exec = nullptr;
  }
  if (!r->exec) {
    cudaGraph_t g;
    cudaError_t st = capture(x, n, s, &g);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(&r->exec, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) {
      r->exec = nullptr;
      return st;
    }
    r->batch = n;
  }
  return cudaGraphLaunch(r->exec, s);
}

void runner_reset(Runner *r) {
  if (r->exec) cudaGraphExecDestroy(r->exec);
  r->exec = nullptr;
  r->batch = 0;
}
