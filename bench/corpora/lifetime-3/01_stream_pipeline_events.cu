// Three-stage pipeline over two streams; each stage is a captured graph.
// CORRECT: every exec is destroyed on every path through the goto-cleanup.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void preprocess(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
__global__ void infer(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; }
__global__ void postprocess(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] > 0 ? x[i] : 0; }

static cudaError_t capture(cudaStream_t s, void (*k)(float *, int), float *buf, int n, cudaGraph_t *out) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  k<<<(n + 255) / 256, 256, 0, s>>>(buf, n);
  return cudaStreamEndCapture(s, out);
}

int run_pipeline(float *buf, int n, int iters) {
  cudaStream_t s0 = nullptr, s1 = nullptr;
  cudaEvent_t ready = nullptr;
  cudaGraph_t g[3] = {nullptr, nullptr, nullptr};
  cudaGraphExec_t pre = nullptr, mid = nullptr, post = nullptr;
  int rc = -1;

  if (cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) != cudaSuccess) goto out_s0;
  if (cudaEventCreateWithFlags(&ready, cudaEventDisableTiming) != cudaSuccess) goto out_s1;

  if (capture(s0, preprocess, buf, n, &g[0]) != cudaSuccess) goto out_graphs;
  if (capture(s1, infer, buf, n, &g[1]) != cudaSuccess) goto out_graphs;
  if (capture(s1, postprocess, buf, n, &g[2]) != cudaSuccess) goto out_graphs;

  if (cudaGraphInstantiate(&pre, g[0], 0) != cudaSuccess) goto out_graphs;
  if (cudaGraphInstantiate(&mid, g[1], 0) != cudaSuccess) goto out_pre;
  if (cudaGraphInstantiate(&post, g[2], 0) != cudaSuccess) goto out_mid;

  for (int it = 0; it < iters; ++it) {
    if (cudaGraphLaunch(pre, s0) != cudaSuccess) goto out_post;
    cudaEventRecord(ready, s0);
    cudaStreamWaitEvent(s1, ready, 0);
    if (cudaGraphLaunch(mid, s1) != cudaSuccess) goto out_post;
    if (cudaGraphLaunch(post, s1) != cudaSuccess) goto out_post;
  }
  rc = cudaStreamSynchronize(s1) == cudaSuccess ? 0 : -2;

out_post:
  cudaGraphExecDestroy(post);
out_mid:
  cudaGraphExecDestroy(mid);
out_pre:
  cudaGraphExecDestroy(pre);
out_graphs:
  for (cudaGraph_t gr : g)
    if (gr) cudaGraphDestroy(gr);
  cudaEventDestroy(ready);
out_s1:
  cudaStreamDestroy(s1);
out_s0:
  cudaStreamDestroy(s0);
  return rc;
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  int rc = run_pipeline(d, 1024, 8);
  cudaFree(d);
  std::printf("rc=%d\n", rc);
  return rc;
}
