// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-use-after-dealloc]
// Reduction corpus/06-capture-region-past-correlated-end.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: `if (flag) BeginCapture; ...; if (flag) { EndCapture; ... }`. The captured-memory scan
// walks every CFG path from the begin, including the one that skips the (correlated) end, so
// calls after the region count as captured, even cudaGraphDebugDotPrint(graph): the graph handle
// becomes "memory the exec reads", and destroying the graph after instantiation a free.
// Clean: the usual destroy-after-instantiate; the analyzer reports a launch after free (FP).
// Buggy twin (-DBUGGY): the kernel's buffer is freed before the replays; must report.
#include <cuda_runtime.h>
#include <cstdlib>
#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }

void run(cudaStream_t s, int steps, bool use_graph, bool keep_graph) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, 32 * sizeof(float)));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (use_graph) CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  k<<<1, 32, 0, s>>>(d);
  if (use_graph) {
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    if (!keep_graph) { cudaGraphDestroy(graph); graph = nullptr; }
  }
#ifdef BUGGY
  cudaFree(d);
#endif
  for (int i = 1; i < steps; ++i)
    if (use_graph) cudaGraphLaunch(exec, s);
  if (graph != nullptr) {
    cudaGraphDebugDotPrint(graph, "step.dot", 0);
    cudaGraphDestroy(graph);
  }
  if (exec != nullptr) cudaGraphExecDestroy(exec);
#ifndef BUGGY
  cudaFree(d);
#endif
}
