// Autotuning loop over launch configurations: break / continue stress.
#include <cuda_runtime.h>

__global__ void reduceKernel(const float *in, float *out, int n) {}

static cudaGraph_t captureConfig(const float *in, float *out, int n, int block,
                                 cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  reduceKernel<<<(n + block - 1) / block, block, 0, s>>>(in, out, n);
  cudaStreamEndCapture(s, &g);
  return g;
}

static float timeExec(cudaGraphExec_t exec, cudaStream_t s) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  cudaGraphLaunch(exec, s);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

// Correct: keeps the best exec, destroys the losers, returns the winner.
cudaGraphExec_t autotune(const float *in, float *out, int n, cudaStream_t s) {
  cudaGraphExec_t best = nullptr;
  float bestMs = 1e30f;
  for (int block = 32; block <= 1024; block *= 2) {
    if (n < block)
      break;
    cudaGraph_t g = captureConfig(in, out, n, block, s);
    if (!g)
      continue;
    cudaGraphExec_t cand;
    cudaError_t e = cudaGraphInstantiate(&cand, g, 0);
    cudaGraphDestroy(g);
    if (e != cudaSuccess)
      continue;
    float ms = timeExec(cand, s);
    if (ms < bestMs) {
      if (best)
        cudaGraphExecDestroy(best);
      best = cand;
      bestMs = ms;
    } else {
      cudaGraphExecDestroy(cand);
    }
  }
  return best;
}

// Buggy: the "good enough" early break forgets the previous best, and the
// losing candidates are not destroyed.
cudaGraphExec_t autotuneBuggy(const float *in, float *out, int n, cudaStream_t s,
                              float target) {
  cudaGraphExec_t best = nullptr;
  float bestMs = 1e30f;
  int block = 32;
  while (block <= 1024) {
    cudaGraph_t g = captureConfig(in, out, n, block, s);
    block *= 2;
    cudaGraphExec_t cand;
    if (cudaGraphInstantiate(&cand, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      continue;
    }
    cudaGraphDestroy(g);
    float ms = timeExec(cand, s);
    if (ms > bestMs)
      continue;  // loser leaked
    best = cand;
    bestMs = ms;
    if (ms < target)
      break;
  }
  return best;
}

// Correct: do/while with continue that destroys first.
int countValidConfigs(const float *in, float *out, int n, cudaStream_t s) {
  int valid = 0;
  int block = 16;
  do {
    block *= 2;
    cudaGraph_t g = captureConfig(in, out, n, block, s);
    cudaGraphExec_t exec;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    if (e != cudaSuccess)
      continue;
    if (cudaGraphLaunch(exec, s) != cudaSuccess) {
      cudaGraphExecDestroy(exec);
      continue;
    }
    ++valid;
    cudaGraphExecDestroy(exec);
  } while (block < 1024);
  return valid;
}
