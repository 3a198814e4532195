#include "graphdemo.h"

#ifndef GRAPHDEMO_ENABLE_GRAPHS
#error "the target's compile definitions must reach the analysis"
#endif

__global__ void kernel(float *x) { x[threadIdx.x] *= 2.0f; }

void run_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
}
