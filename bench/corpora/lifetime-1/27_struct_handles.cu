// Structs that bundle graph handles.
#include <cuda_runtime.h>
#include <cstdio>

struct GraphHandles {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

extern void enqueue_for_later(GraphHandles *h);

// Correct: into the caller's struct through a pointer.
bool build_into(GraphHandles *out, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  out->graph = g;
  out->exec = e;
  return true;
}

// Correct: the struct is returned by value.
GraphHandles build(cudaGraph_t g) {
  GraphHandles h;
  h.graph = g;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess)
    h.exec = nullptr;
  return h;
}

// Correct: the local struct is handed to an opaque consumer.
void build_and_enqueue(cudaGraph_t g) {
  GraphHandles h;
  h.graph = g;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess)
    return;
  enqueue_for_later(&h);
}

// Buggy: a plain local aggregate without a destructor; it goes out of scope
// with a live exec.
void probe(cudaGraph_t g, cudaStream_t s) {
  GraphHandles h;
  h.graph = g;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return;
  cudaGraphLaunch(h.exec, s);
  cudaStreamSynchronize(s);
}

// Correct: the same with cleanup.
void probe_ok(cudaGraph_t g, cudaStream_t s) {
  GraphHandles h;
  h.graph = g;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(h.exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(h.exec);
}
