#include "step_graph.h"

cudaError_t record(cudaStream_t s, float **scratch, cudaGraph_t *g) {
  StepGraph runner;
  if (runner.begin(s) != cudaSuccess)
    return cudaErrorUnknown;
  cudaMalloc(scratch, 64);
  cudaError_t e = runner.end(g);
  cudaMalloc(scratch + 1, 64);
  return e;
}
