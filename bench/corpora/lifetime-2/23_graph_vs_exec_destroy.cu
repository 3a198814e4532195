// Destroying the graph right after instantiation is legal; confusing graph and exec is not.
#include <cuda_runtime.h>

__global__ void k(int* x) {}

// Correct: graph destroyed immediately, exec destroyed later.
void ok_early_graph_destroy(cudaStream_t s, int* x) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  k<<<1, 32, 0, s>>>(x);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, s);
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
}

// Buggy: developer thinks cudaGraphDestroy also frees the exec.
void leaky_graph_destroy_only(cudaStream_t s, int* x) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  k<<<1, 32, 0, s>>>(x);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  cudaGraphDestroy(g);
}

// Correct: the exec is destroyed before the graph; order doesn't matter.
void ok_exec_first(cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) {
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
  }
  cudaGraphDestroy(g);
}

// Correct: instantiate two execs from one graph (no alloc nodes), destroy both.
void ok_two_from_one(cudaStream_t s1, cudaStream_t s2, cudaGraph_t g) {
  cudaGraphExec_t e1, e2;
  cudaGraphInstantiate(&e1, g, 0);
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphDestroy(g);
  cudaGraphLaunch(e1, s1);
  cudaGraphLaunch(e2, s2);
  cudaGraphExecDestroy(e1);
  cudaGraphExecDestroy(e2);
}

// Buggy: cloned graph instantiated; code destroys the clone and the original graph only.
void leaky_clone(cudaStream_t s, cudaGraph_t g) {
  cudaGraph_t clone;
  cudaGraphClone(&clone, g);
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, clone, 0) != cudaSuccess) {  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(clone);
    return;
  }
  cudaGraphLaunch(e, s);
  cudaGraphDestroy(clone);
}

// Correct: exec checked with a null test before destroy.
void ok_null_checked(cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  cudaGraphInstantiate(&e, g, 0);
  if (e != nullptr) {
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
  }
}
