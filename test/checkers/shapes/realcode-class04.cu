// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class04.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 4: ending a capture begun with `cudaStreamBeginCaptureToGraph`
// FP: a capture begun with cudaStreamBeginCaptureToGraph into a conditional node's body graph
// (owned by the node) and ended again: cudaStreamEndCapture hands back that same body graph,
// not a new graph the caller must destroy (warp apic.cu:848/900 pause/resume protocol).
#include <cuda_runtime.h>
static bool resume(cudaStream_t s, cudaGraph_t g) {
  return cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal) == cudaSuccess;
}
static bool pause(cudaStream_t s, cudaGraph_t *g) { return cudaStreamEndCapture(s, g) == cudaSuccess; }

bool fill_if_body(cudaStream_t s, cudaGraph_t parent, cudaGraphNode_t *node, float *d) {
  cudaGraphConditionalHandle h;
  if (cudaGraphConditionalHandleCreate(&h, parent, 0, 0) != cudaSuccess) return false;
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  if (cudaGraphAddNode(node, parent, nullptr, nullptr, 0, &p) != cudaSuccess) return false;
  cudaGraph_t body = p.conditional.phGraph_out[0];   // owned by the conditional node
  if (!resume(s, body)) return false;
  cudaMemsetAsync(d, 0, 4, s);
  cudaGraph_t tmp = nullptr;
  return pause(s, &tmp);                              // tmp == body: nothing to destroy
}
