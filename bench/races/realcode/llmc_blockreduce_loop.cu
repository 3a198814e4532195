// Reduction of llm.c's softmax_autoregressive_backward_inplace_kernel
// (llmc/attention.cuh, with blockReduce from llmc/cuda_utils.cuh): a block
// reduction through a 32-slot __shared__ array, called in a loop of four
// iterations without its final barrier (llm.c's own comment asks for
// final_sync=true inside loops). Lane 0 of warp 0 writes slot 0 for the next
// iteration while lane 0 of warp 1 may still read it for this one.
// cudagraph-shared-race reports it; ground truth: racecheck (run_gpu.sh).
// Build with -DFIXED for the version with the final barrier.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__device__ float blockSum(float val, bool final_sync) {
  __shared__ float partial[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warps = blockDim.x / 32;
  float w = warpSum(val);
  if (lane == 0)
    partial[warp] = w;
  __syncthreads();
  w = (lane < warps) ? partial[lane] : 0.0f;
  float total = warpSum(w);
  if (final_sync)
    __syncthreads();
  return total;
}

__global__ void rowsBackward(float *data, const float *grad, int t0) {
  for (int to = 0; to < 4; ++to) {
    int t = t0 - to;
    if (t < 0)
      return;
    float local = 0.0f;
    for (int i = threadIdx.x; i <= t; i += blockDim.x)
      local += grad[t * 1024 + i];
#ifdef FIXED
    local = blockSum(local, true);
#else
    local = blockSum(local, false);
#endif
    for (int i = threadIdx.x; i <= t; i += blockDim.x)
      data[t * 1024 + i] -= local;
  }
}

void launchRows(float *data, const float *grad) { rowsBackward<<<1, 256>>>(data, grad, 1023); }

#ifdef WITH_MAIN
int main() {
  float *d, *g;
  cudaMalloc(&d, 1024 * 1024 * sizeof(float));
  cudaMalloc(&g, 1024 * 1024 * sizeof(float));
  cudaMemset(d, 0, 1024 * 1024 * sizeof(float));
  cudaMemset(g, 0, 1024 * 1024 * sizeof(float));
  launchRows(d, g);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d);
  cudaFree(g);
  return 0;
}
#endif
