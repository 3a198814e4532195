// Capture error paths that involve both the graph and the exec.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void attn_kernel(float *o, const float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = q[i];
}

#define CHECK_OR_FALSE(x)                                                      \
  do {                                                                         \
    if ((x) != cudaSuccess) {                                                  \
      fprintf(stderr, "%s failed\n", #x);                                      \
      return false;                                                            \
    }                                                                          \
  } while (0)

class AttnGraph {
public:
  ~AttnGraph() { destroy(); }
  void destroy() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
  }
  // Correct: the member takes the exec; failures before that own nothing.
  bool capture(float *o, const float *q, int n, cudaStream_t s) {
    cudaGraph_t g = nullptr;
    CHECK_OR_FALSE(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    attn_kernel<<<(n + 255) / 256, 256, 0, s>>>(o, q, n);
    CHECK_OR_FALSE(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t e = nullptr;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    CHECK_OR_FALSE(st);
    destroy();
    exec_ = e;
    return true;
  }

private:
  cudaGraphExec_t exec_ = nullptr;
};

// Buggy: the graph is destroyed with a checked macro that returns; the exec
// already exists by then.
bool capture_once(float *o, const float *q, int n, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraph_t g = nullptr;
  CHECK_OR_FALSE(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  attn_kernel<<<(n + 255) / 256, 256, 0, s>>>(o, q, n);
  CHECK_OR_FALSE(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e = nullptr;
  CHECK_OR_FALSE(cudaGraphInstantiate(&e, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  CHECK_OR_FALSE(cudaGraphDestroy(g));
  *out = e;
  return true;
}

// Correct: a graph built by hand (no capture), instantiated, launched,
// destroyed.
bool build_by_hand(float *o, const float *q, int n, cudaStream_t s) {
  cudaGraph_t g;
  CHECK_OR_FALSE(cudaGraphCreate(&g, 0));
  cudaKernelNodeParams kp = {};
  void *args[] = {&o, &q, &n};
  kp.func = (void *)attn_kernel;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  if (cudaGraphAddKernelNode(&node, g, nullptr, 0, &kp) != cudaSuccess) {
    cudaGraphDestroy(g);
    return false;
  }
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (st != cudaSuccess)
    return false;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st == cudaSuccess;
}
