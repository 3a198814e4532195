// Optional graph mode controlled by a flag (eager fallback otherwise).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void step_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

// Correct: the same flag guards creation and destruction.
void run_steps(cudaGraph_t g, float *x, int n, cudaStream_t s, int steps) {
  const bool use_graph = std::getenv("DISABLE_CUDA_GRAPH") == nullptr;
  cudaGraphExec_t exec = nullptr;
  if (use_graph && cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    fprintf(stderr, "graph instantiate failed\n");
    return;
  }
  for (int i = 0; i < steps; ++i) {
    if (use_graph)
      cudaGraphLaunch(exec, s);
    else
      step_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  }
  if (use_graph)
    cudaGraphExecDestroy(exec);
}

// Buggy: the destroy is guarded by a stronger condition than the creation.
void run_steps_profiled(cudaGraph_t g, float *x, int n, cudaStream_t s,
                        int steps, bool use_graph, bool profiling) {
  cudaGraphExec_t exec = nullptr;
  if (use_graph)
    cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  for (int i = 0; i < steps; ++i) {
    if (use_graph)
      cudaGraphLaunch(exec, s);
    else
      step_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  }
  if (use_graph && !profiling)
    cudaGraphExecDestroy(exec);
}

struct EngineConfig {
  bool enforce_eager = false;
  int max_steps = 16;
};

class Engine {
public:
  explicit Engine(EngineConfig c) : cfg_(c) {}
  // Correct: member flag, null-guarded destroy.
  void generate(cudaGraph_t g, float *x, int n, cudaStream_t s) {
    cudaGraphExec_t exec = nullptr;
    if (!cfg_.enforce_eager)
      cudaGraphInstantiate(&exec, g, 0);
    for (int i = 0; i < cfg_.max_steps; ++i) {
      if (exec)
        cudaGraphLaunch(exec, s);
      else
        step_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    }
    if (exec)
      cudaGraphExecDestroy(exec);
  }

private:
  EngineConfig cfg_;
};
