// Child graphs: each layer is captured into its own graph, then composed into
// a parent with cudaGraphAddChildGraphNode.
#include <cuda_runtime.h>
#include <vector>

__global__ void layerKernel(float *act, int layer, int n) {}

static cudaGraph_t captureLayer(float *act, int layer, int n, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  layerKernel<<<(n + 255) / 256, 256, 0, s>>>(act, layer, n);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Helper in the same file: returns a fresh exec to the caller.
static cudaGraphExec_t instantiateModel(float *act, int layers, int n, cudaStream_t s) {
  cudaGraph_t parent;
  cudaGraphCreate(&parent, 0);
  cudaGraphNode_t prev = nullptr;
  for (int l = 0; l < layers; ++l) {
    cudaGraph_t child = captureLayer(act, l, n, s);
    cudaGraphNode_t node;
    cudaGraphAddChildGraphNode(&node, parent, prev ? &prev : nullptr, prev ? 1 : 0, child);
    cudaGraphDestroy(child);  // the child node holds a clone
    prev = node;
  }
  cudaGraphExec_t exec = nullptr;
  if (cudaGraphInstantiate(&exec, parent, 0) != cudaSuccess)
    exec = nullptr;
  cudaGraphDestroy(parent);
  return exec;
}

// Correct: the caller destroys what the helper returned.
void inferOnce(float *act, int layers, int n, cudaStream_t s) {
  cudaGraphExec_t exec = instantiateModel(act, layers, n, s);
  if (!exec)
    return;
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
}

// Buggy: the helper's exec is launched and dropped.
void inferAndForget(float *act, int layers, int n, cudaStream_t s) {
  cudaGraphExec_t exec = instantiateModel(act, layers, n, s); // EXPECT: cudagraph-unpaired-instantiate
  if (exec)
    cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
}

struct ModelZoo {
  std::vector<cudaGraphExec_t> execs;
  ~ModelZoo() {
    for (cudaGraphExec_t e : execs) cudaGraphExecDestroy(e);
  }
};

// Correct: the helper's exec is moved into a container.
void registerModel(ModelZoo &zoo, float *act, int layers, int n, cudaStream_t s) {
  cudaGraphExec_t exec = instantiateModel(act, layers, n, s);
  if (exec)
    zoo.execs.push_back(exec);
}

// Buggy: each depth is instantiated directly, only the deepest kept.
cudaGraphExec_t pickDeepest(float *act, int maxLayers, int n, cudaStream_t s) {
  cudaGraphExec_t best = nullptr;
  for (int l = 1; l <= maxLayers; ++l) {
    cudaGraph_t child = captureLayer(act, l, n, s);
    cudaGraph_t parent;
    cudaGraphCreate(&parent, 0);
    cudaGraphNode_t node;
    cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child);
    cudaGraphInstantiate(&best, parent, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(parent);
    cudaGraphDestroy(child);
  }
  return best;
}
