// The leading #include block is the preamble the cache precompiles.
#include <cuda_runtime.h>
#include "preamble_user.cuh"

void leak_simple(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
}

__global__ void tiles(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][threadIdx.y] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.y] = tile[threadIdx.y][threadIdx.x];
}
