// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// The -DBUGGY twin is not reported yet: a known false negative (issue 36).
// Reduction corpus/17b-cache-field-overwrite-free-function.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a free function updates a graph cache held in a struct with a destructor, through a
// pointer (llama.cpp's ggml_cuda_graph shape): EndCapture into `c->graph` over the graph the
// cache still owns. The helper has no null test deciding the capture, and at the caller the
// struct (it has a destructor) is not followed member by member, so nothing is reported.
// Clean: the previous graph is destroyed before EndCapture reuses the field; silent.
// Buggy twin (-DBUGGY): it is not; every rebuild leaks a graph; must report, silent (FN).
#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
struct GraphCache {
  ~GraphCache() {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};
void step(GraphCache* c, cudaStream_t s, float* d, bool rebuild) {
  if (rebuild) {
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
    k<<<1, 32, 0, s>>>(d);
#ifndef BUGGY
    if (c->graph != nullptr) { cudaGraphDestroy(c->graph); c->graph = nullptr; }
#endif
    if (cudaStreamEndCapture(s, &c->graph) != cudaSuccess) return;
  }
  if (c->exec == nullptr) {
    if (cudaGraphInstantiate(&c->exec, c->graph, 0) != cudaSuccess) return;
  } else if (rebuild) {
    cudaGraphExecUpdateResultInfo info;
    cudaGraphExecUpdate(c->exec, c->graph, &info);
  }
  cudaGraphLaunch(c->exec, s);
}
void serve(cudaStream_t s, float* d, int steps) {
  GraphCache c;
  for (int i = 0; i < steps; ++i) step(&c, s, d, i % 8 == 0);
}
