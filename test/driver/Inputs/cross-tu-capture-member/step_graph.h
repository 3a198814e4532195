#pragma once
#include <cuda_runtime.h>

// Captures on the stream it keeps: begin() in one method, end() in another.
class StepGraph {
public:
  cudaError_t begin(cudaStream_t s);
  cudaError_t end(cudaGraph_t *g);

private:
  cudaStream_t s_ = nullptr;
};
