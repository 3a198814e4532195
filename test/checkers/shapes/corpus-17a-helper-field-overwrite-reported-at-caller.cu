// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-without-destroy]
// Reduction corpus/17a-helper-field-overwrite-reported-at-caller.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a C helper re-captures into a field of a struct behind its pointer parameter
// (`EndCapture(s, &r->g)`) without destroying the graph the field holds. Inside the helper
// only a null test that *decides* the acquisition makes the field live on entry, so the
// helper is silent; the defect is reported only at the caller's call of the helper in a loop.
// Clean: the stale graph is destroyed in the rebuild branch; silent.
// Buggy twin (-DBUGGY): it is not; the finding lands at line 31 (the call), not at the
//   EndCapture on line 24 where the graph is lost (location FN + FP in the scoring).
#include <cuda_runtime.h>
#include <stdio.h>
typedef struct { cudaStream_t s; cudaGraph_t g; cudaGraphExec_t e; } rec_t;
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
int rec_build(rec_t* r, float* d) {
  if (r->g != NULL) { /* rebuilding: log the old graph, drop the stale exec */
    size_t n = 0;
    cudaGraphGetNodes(r->g, NULL, &n);
    printf("rebuilding (old graph had %zu nodes)\n", n);
    cudaGraphExecDestroy(r->e);
#ifndef BUGGY
    cudaGraphDestroy(r->g);
#endif
  }
  if (cudaStreamBeginCapture(r->s, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1;
  k<<<1, 32, 0, r->s>>>(d);
  if (cudaStreamEndCapture(r->s, &r->g) != cudaSuccess) return -1;
  return cudaGraphInstantiate(&r->e, r->g, 0) == cudaSuccess ? 0 : -1;
}
int main_loop(float** bufs, int n) {
  rec_t r = {NULL, NULL, NULL};
  if (cudaStreamCreate(&r.s) != cudaSuccess) return -1;
  for (int i = 0; i < n; ++i) {
    if (rec_build(&r, bufs[i]) != 0) break;
    cudaGraphLaunch(r.e, r.s);
  }
  if (r.e != NULL) cudaGraphExecDestroy(r.e);
  if (r.g != NULL) cudaGraphDestroy(r.g);
  cudaStreamDestroy(r.s);
  return 0;
}
