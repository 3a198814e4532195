// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-without-destroy]
// Reduction corpus/07-driver-graph-query-unmodelled.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: read-only driver-API graph calls missing from the API model (cuGraphGetNodes,
// cuGraphDebugDotPrint, ...) are unknown calls, and an unknown call that is given a handle
// makes it escape: every later leak of that graph goes unreported.
// Clean: the captured graph is destroyed on every path; silent.
// Buggy twin (-DBUGGY): the dry-run return leaks it; must report, the analyzer is silent (FN).
// (The runtime twin cudaGraphGetNodes is modelled: the same code with it is reported.)
#include <cuda.h>

CUresult record_fill(CUstream s, CUdeviceptr buf, size_t words, bool dry_run, CUgraphExec* out) {
  CUgraph g;
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) return r;
  cuMemsetD32Async(buf, 0u, words, s);
  r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  size_t nodes = 0;
  cuGraphGetNodes(g, nullptr, &nodes);
  if (dry_run || nodes == 0) {
#ifndef BUGGY
    cuGraphDestroy(g);
#endif
    return CUDA_SUCCESS;
  }
  r = cuGraphInstantiate(out, g, 0);
  cuGraphDestroy(g);
  return r;
}
