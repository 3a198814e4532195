// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class03a.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 3: lazy getters returning a member of their pointer parameter
// FP: a lazy getter that instantiates into a member of its pointer parameter and returns that
// member is taken for a factory: its caller "leaks" the borrowed exec (warp apic.cu:1100).
#include <cuda_runtime.h>
struct Plan { cudaGraph_t graph = nullptr; cudaGraphExec_t exec = nullptr; };

cudaGraphExec_t plan_exec(Plan *p) {
  if (!p->exec && cudaGraphInstantiate(&p->exec, p->graph, 0) != cudaSuccess) return nullptr;
  return p->exec;                                   // borrowed: the Plan keeps it
}
void plan_free(Plan *p) {
  if (p->exec) cudaGraphExecDestroy(p->exec);
  if (p->graph) cudaGraphDestroy(p->graph);
  delete p;
}
bool plan_launch(Plan *p, cudaStream_t s) {
  cudaGraphExec_t e = plan_exec(p);
  if (!e) return false;
  return cudaGraphLaunch(e, s) == cudaSuccess;     // reported: 'e' not destroyed
}
