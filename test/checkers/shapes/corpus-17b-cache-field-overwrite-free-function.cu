// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: :[[@LINE+28]]:9: warning: 'cudaStreamEndCapture' overwrites 'c->graph', which still holds a live captured graph{{.*}} [cudagraph-capture-without-destroy]
// BUGGY: note: an earlier call of 'step' leaves 'c->graph' holding the captured graph
// Reduction corpus/17b-cache-field-overwrite-free-function.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a free function updates a graph cache held in a struct with a destructor, through a
// pointer (llama.cpp's ggml_cuda_graph shape): EndCapture into `c->graph` over the graph the
// cache still owns. The helper has no null test deciding the capture, and at the caller the
// struct (it has a destructor) is not followed member by member, so nothing was reported.
// Now `step` starts with `c->graph` as its own earlier call on the same object (`serve`'s
// loop) left it (lib/Lifetime/Ownership/ParamMembers.cpp).
// Clean: the previous graph is destroyed before EndCapture reuses the field; silent.
// Buggy twin (-DBUGGY): it is not; every rebuild leaks a graph; reported at the EndCapture.
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
