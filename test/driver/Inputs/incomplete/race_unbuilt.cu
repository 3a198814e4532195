// A kernel whose barrier clang could not build (an undeclared helper, as a
// cg::sync whose group type failed to resolve is) and its twin without it.
#include <cuda_runtime.h>

__global__ void reverse_unbuilt_barrier(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = out[threadIdx.x];
  block_barrier_not_declared();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void reverse_no_barrier(float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

void launch(float *d, cudaStream_t s) {
  reverse_unbuilt_barrier<<<1, 256, 0, s>>>(d);
  reverse_no_barrier<<<1, 256, 0, s>>>(d);
}
