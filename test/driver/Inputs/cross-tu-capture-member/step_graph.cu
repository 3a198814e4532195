#include "step_graph.h"

cudaError_t StepGraph::begin(cudaStream_t s) {
  s_ = s;
  return cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
}
cudaError_t StepGraph::end(cudaGraph_t *g) { return cudaStreamEndCapture(s_, g); }
