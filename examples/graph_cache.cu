// An LLM-serving style graph cache: one CUDA graph per batch size, captured
// on first use and replayed afterwards. Two lifetime bugs hide here; run
//   build/bin/cudagraph-tidy examples/graph_cache.cu -- -std=c++17
#include <cuda_runtime.h>
#include <cstdio>
#include <unordered_map>

#define CUDA_RETURN_IF_ERROR(expr)                                             \
  do {                                                                         \
    cudaError_t status_ = (expr);                                              \
    if (status_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(status_));  \
      return status_;                                                          \
    }                                                                          \
  } while (0)

__global__ void decode_step(float *logits, const float *hidden, int batch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * 4096)
    logits[i] = hidden[i] * 0.5f;
}

class DecodeGraphs {
public:
  // Bug 1: when the warm-up launch fails, the freshly instantiated exec is
  // neither destroyed nor stored: every failed request leaks one exec.
  cudaError_t run(int batch, float *logits, const float *hidden, cudaStream_t s) {
    auto it = execs_.find(batch);
    if (it != execs_.end())
      return cudaGraphLaunch(it->second, s);

    cudaGraph_t graph;
    CUDA_RETURN_IF_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    decode_step<<<(batch * 4096 + 255) / 256, 256, 0, s>>>(logits, hidden, batch);
    CUDA_RETURN_IF_ERROR(cudaStreamEndCapture(s, &graph));

    cudaGraphExec_t exec;
    CUDA_RETURN_IF_ERROR(cudaGraphInstantiate(&exec, graph, 0));
    cudaGraphDestroy(graph); // fine: the exec does not need its graph
    CUDA_RETURN_IF_ERROR(cudaGraphLaunch(exec, s)); // leaks `exec` on failure
    execs_[batch] = exec;
    return cudaSuccess;
  }

  ~DecodeGraphs() {
    for (auto &entry : execs_)
      cudaGraphExecDestroy(entry.second);
  }

private:
  std::unordered_map<int, cudaGraphExec_t> execs_;
};

// Bug 2: re-instantiating every step without destroying the previous exec;
// memory grows by one exec per iteration until the server dies.
void replay_with_new_shapes(cudaGraph_t *graphs, int steps, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  for (int step = 0; step < steps; ++step) {
    cudaGraphInstantiate(&exec, graphs[step], 0);
    cudaGraphLaunch(exec, s);
  }
  cudaStreamSynchronize(s);
  if (exec)
    cudaGraphExecDestroy(exec);
}

// The fixed version: update in place, fall back to destroy + re-instantiate.
void replay_with_update(cudaGraph_t *graphs, int steps, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  for (int step = 0; step < steps; ++step) {
    cudaGraphExecUpdateResultInfo info;
    if (exec && cudaGraphExecUpdate(exec, graphs[step], &info) == cudaSuccess) {
      cudaGraphLaunch(exec, s);
      continue;
    }
    if (exec)
      cudaGraphExecDestroy(exec);
    if (cudaGraphInstantiate(&exec, graphs[step], 0) != cudaSuccess)
      return;
    cudaGraphLaunch(exec, s);
  }
  cudaStreamSynchronize(s);
  if (exec)
    cudaGraphExecDestroy(exec);
}
