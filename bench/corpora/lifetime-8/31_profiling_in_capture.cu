// A training step that can be captured. With profiling on, the buggy version
// synchronizes the device inside the capture; it also zeroes the gradient buffer
// with the synchronous cudaMemset. The fixed version uses cudaMemsetAsync and
// only synchronizes on the eager path.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fwd_bwd(float *w, float *grad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grad[i] += w[i];
}

struct StepCfg {
  bool profile;
  bool capture;
};

cudaError_t train_step_buggy(float *w, float *grad, int n, cudaStream_t s, const StepCfg &cfg,
                             cudaGraph_t *g) {
  if (cfg.capture) cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemset(grad, 0, n * sizeof(float));   // EXPECT: cudagraph-capture-unsafe-call
  fwd_bwd<<<(n + 255) / 256, 256, 0, s>>>(w, grad, n);
  if (cfg.profile) {
    cudaDeviceSynchronize();                // EXPECT: cudagraph-capture-unsafe-call
    std::printf("step done\n");
  }
  if (cfg.capture) return cudaStreamEndCapture(s, g);
  return cudaStreamSynchronize(s);
}

cudaError_t train_step(float *w, float *grad, int n, cudaStream_t s, const StepCfg &cfg,
                       cudaGraph_t *g) {
  if (cfg.capture) {
    cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (st != cudaSuccess) return st;
  }
  cudaMemsetAsync(grad, 0, n * sizeof(float), s);
  fwd_bwd<<<(n + 255) / 256, 256, 0, s>>>(w, grad, n);
  if (cfg.profile && !cfg.capture) {
    cudaDeviceSynchronize();
    std::printf("step done\n");
  }
  if (cfg.capture) return cudaStreamEndCapture(s, g);
  return cudaStreamSynchronize(s);
}
