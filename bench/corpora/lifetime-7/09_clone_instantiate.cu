// Graph cloning: a template graph is cloned per device variant, the clone is
// patched and instantiated.
#include <cuda_runtime.h>

__global__ void gemmTile(const float *a, const float *b, float *c, int tile) {}

struct Variant {
  int tile;
  cudaGraphExec_t exec;
};

// Correct: the clone and the exec are both released.
cudaError_t runClone(cudaGraph_t templ, cudaStream_t s) {
  cudaGraph_t clone;
  cudaError_t e = cudaGraphClone(&clone, templ);
  if (e != cudaSuccess)
    return e;
  cudaGraphExec_t exec;
  e = cudaGraphInstantiate(&exec, clone, 0);
  if (e == cudaSuccess) {
    e = cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
  }
  cudaGraphDestroy(clone);
  return e;
}

// Correct: the exec of each clone is stored into the caller's array
// (out-parameter).
int buildVariants(cudaGraph_t templ, Variant *out, int count) {
  int built = 0;
  for (int i = 0; i < count; ++i) {
    cudaGraph_t clone;
    if (cudaGraphClone(&clone, templ) != cudaSuccess)
      continue;
    cudaGraphExec_t exec;
    if (cudaGraphInstantiate(&exec, clone, 0) == cudaSuccess) {
      out[built].tile = 16 << i;
      out[built].exec = exec;
      ++built;
    }
    cudaGraphDestroy(clone);
  }
  return built;
}

// Buggy: a new clone is instantiated every iteration into the same handle;
// only the last exec is destroyed.
void sweepClones(cudaGraph_t templ, cudaStream_t s, int count) {
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < count; ++i) {
    cudaGraph_t clone;
    cudaGraphClone(&clone, templ);
    cudaGraphInstantiate(&exec, clone, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphLaunch(exec, s);
    cudaGraphDestroy(clone);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

// Correct: the same sweep with a destroy at the end of each iteration.
void sweepClonesFixed(cudaGraph_t templ, cudaStream_t s, int count) {
  for (int i = 0; i < count; ++i) {
    cudaGraph_t clone;
    if (cudaGraphClone(&clone, templ) != cudaSuccess)
      break;
    cudaGraphExec_t exec;
    cudaError_t e = cudaGraphInstantiate(&exec, clone, 0);
    cudaGraphDestroy(clone);
    if (e != cudaSuccess)
      continue;
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
  }
}

// Buggy: the clone's exec leaks when the clone has no nodes.
cudaError_t instantiateIfNonEmpty(cudaGraph_t templ, cudaStream_t s) {
  cudaGraph_t clone;
  cudaGraphClone(&clone, templ);
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiate(&exec, clone, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess) {
    cudaGraphDestroy(clone);
    return e;
  }
  size_t numNodes = 0;
  cudaGraphGetNodes(clone, nullptr, &numNodes);
  cudaGraphDestroy(clone);
  if (numNodes == 0)
    return cudaErrorInvalidValue;
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}
