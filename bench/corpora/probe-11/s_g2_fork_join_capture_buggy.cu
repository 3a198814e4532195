#define BUGGY
// PLANTED: cudagraph-capture-structure line 70
// Captures one transformer block with attention and the MLP's gate projection
// on two parallel branches (fork/join via events), as serving engines do to
// overlap small kernels at low batch sizes.
#include <cuda_runtime.h>
#include <cstdio>
#include <stdexcept>
#include <string>

#define CAP_CHECK(call)                                                        \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      throw std::runtime_error(std::string(#call) + " -> " + cudaGetErrorName(e_)); \
  } while (0)

__global__ void attention_kernel(const float *qkv, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = qkv[i] * 0.125f;
}
__global__ void gate_proj_kernel(const float *x, float *gate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gate[i] = x[i] > 0.f ? x[i] : 0.f;
}
__global__ void combine_kernel(const float *a, const float *g, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] * g[i];
}

struct BlockBuffers {
  const float *qkv;
  const float *x;
  float *attn_out;
  float *gate;
  float *y;
  int n;
};

class ParallelBlockGraph {
 public:
  ParallelBlockGraph() {
    CAP_CHECK(cudaStreamCreateWithFlags(&main_, cudaStreamNonBlocking));
    CAP_CHECK(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
    CAP_CHECK(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    CAP_CHECK(cudaEventCreateWithFlags(&join_, cudaEventDisableTiming));
  }
  ~ParallelBlockGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaEventDestroy(join_);
    cudaEventDestroy(fork_);
    cudaStreamDestroy(side_);
    cudaStreamDestroy(main_);
  }
  ParallelBlockGraph(const ParallelBlockGraph &) = delete;
  ParallelBlockGraph &operator=(const ParallelBlockGraph &) = delete;

  void capture(const BlockBuffers &b) {
    int grid = (b.n + 255) / 256;
    cudaGraph_t graph = nullptr;
    CAP_CHECK(cudaStreamBeginCapture(main_, cudaStreamCaptureModeGlobal));
    CAP_CHECK(cudaEventRecord(fork_, main_));
    CAP_CHECK(cudaStreamWaitEvent(side_, fork_, 0));
    gate_proj_kernel<<<grid, 256, 0, side_>>>(b.x, b.gate, b.n);
    attention_kernel<<<grid, 256, 0, main_>>>(b.qkv, b.attn_out, b.n);
#ifndef BUGGY
    CAP_CHECK(cudaEventRecord(join_, side_));
    CAP_CHECK(cudaStreamWaitEvent(main_, join_, 0));
#endif
    combine_kernel<<<grid, 256, 0, main_>>>(b.attn_out, b.gate, b.y, b.n);
    CAP_CHECK(cudaStreamEndCapture(main_, &graph));  // EXPECT: cudagraph-capture-structure
    cudaError_t st = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    CAP_CHECK(st);
  }

  void replay() { CAP_CHECK(cudaGraphLaunch(exec_, main_)); }
  void wait() { CAP_CHECK(cudaStreamSynchronize(main_)); }

 private:
  cudaStream_t main_ = nullptr, side_ = nullptr;
  cudaEvent_t fork_ = nullptr, join_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int run_block(const BlockBuffers &b, int steps) {
  try {
    ParallelBlockGraph g;
    g.capture(b);
    for (int i = 0; i < steps; ++i) g.replay();
    g.wait();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "block graph: %s\n", e.what());
    return 1;
  }
  return 0;
}
