// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class03b.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 3: lazy getters returning a member of their pointer parameter
// FP: lazy getter -> helper that destroys a member of its pointer parameter and stores a new graph
// into it (reset + rebuild). Composed into the getter's summary this becomes "releases p->graph"
// and "returns a new captured graph": the caller gets a use-after-release and a leak
// (warp apic.cu:1080 and 1084). Calling rebuild() directly instead of plan_graph() is silent.
#include <cuda_runtime.h>
struct Plan { cudaGraph_t graph = nullptr; };

static bool rebuild(Plan *p, cudaStream_t s, float *d) {
  if (p->graph) { cudaGraphDestroy(p->graph); p->graph = nullptr; }
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return false;
  cudaMemsetAsync(d, 0, 4, s);
  cudaGraph_t captured = nullptr;
  if (cudaStreamEndCapture(s, &captured) != cudaSuccess) return false;
  p->graph = captured;                               // re-acquired
  return true;
}
cudaGraph_t plan_graph(Plan *p, cudaStream_t s, float *d) {
  if (!p->graph && !rebuild(p, s, d)) return nullptr;
  return p->graph;                                   // borrowed
}
bool plan_instantiate(Plan *p, cudaStream_t s, float *d, cudaGraphExec_t *out) {
  if (!plan_graph(p, s, d)) return false;            // warning 1: "captured graph ... not destroyed"
  return cudaGraphInstantiate(out, p->graph, 0) == cudaSuccess;   // warning 2: "used after released"
}
void plan_free(Plan *p) { if (p->graph) cudaGraphDestroy(p->graph); }
