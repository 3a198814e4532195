// Nested validation with early returns, as in a mixed-precision path.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void castKernel(const float *in, __half *out, int n) {}

struct Config {
  bool fp16;
  bool checkOverflow;
  int n;
};

bool overflowDetected(const __half *buf, int n);  // external

// Correct: all nested exits destroy.
int castGraph(const Config &cfg, const float *in, __half *out, cudaStream_t s) {
  if (cfg.n <= 0)
    return 0;
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  castKernel<<<(cfg.n + 255) / 256, 256, 0, s>>>(in, out, cfg.n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess)
    return -1;
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  if (e != cudaSuccess)
    return -2;
  if (cfg.fp16) {
    if (cudaGraphLaunch(exec, s) != cudaSuccess) {
      cudaGraphExecDestroy(exec);
      return -3;
    }
    if (cfg.checkOverflow) {
      cudaStreamSynchronize(s);
      if (overflowDetected(out, cfg.n)) {
        cudaGraphExecDestroy(exec);
        return 1;
      }
    }
  }
  cudaGraphExecDestroy(exec);
  return 0;
}

// Buggy: the overflow exit in the innermost block returns without destroy.
int castGraphBuggy(const Config &cfg, const float *in, __half *out, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  castKernel<<<(cfg.n + 255) / 256, 256, 0, s>>>(in, out, cfg.n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  if (e == cudaSuccess) {
    if (cfg.fp16) {
      cudaGraphLaunch(exec, s);
      if (cfg.checkOverflow) {
        cudaStreamSynchronize(s);
        if (overflowDetected(out, cfg.n))
          return 1;
      }
    }
    cudaGraphExecDestroy(exec);
  }
  return 0;
}

// Correct: instantiate only in one branch; destroyed in the same branch.
int maybeGraph(const Config &cfg, const float *in, __half *out, cudaStream_t s,
               cudaGraph_t g) {
  if (!cfg.fp16) {
    castKernel<<<1, 256, 0, s>>>(in, out, cfg.n);
    return 0;
  } else if (cfg.n > 1 << 20) {
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
      return -1;
    if (cfg.checkOverflow) {
      cudaGraphLaunch(exec, s);
    } else {
      cudaGraphUpload(exec, s);
      cudaGraphLaunch(exec, s);
    }
    cudaGraphExecDestroy(exec);
    return 0;
  }
  return 2;
}
