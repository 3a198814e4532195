// Kernels defined here and launched in launch.cu: this unit sees no launch
// of them, so only the launches carried across files give them a shape.
#include <cuda_runtime.h>

__global__ void scale(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x] * 2.0f;
}

// Each instantiation keeps its own launches: fill<64> runs with 64 threads,
// fill<128> with 128, and neither overflows.
template <int N> __global__ void fill(float *out) {
  __shared__ float buf[N];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buf[N - 1 - threadIdx.x];
}
template __global__ void fill<64>(float *);
template __global__ void fill<128>(float *);

// Launched nowhere: no shape, no verdict.
__global__ void unused(float *out) {
  __shared__ float t[32];
  t[threadIdx.x] = 0.0f;
  __syncthreads();
  out[0] = t[0];
}

// Launched through a wrapper in launch.cu: the note names the wrapper's call.
__global__ void wide(float *out) {
  __shared__ float w[32];
  w[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = w[31 - threadIdx.x % 32];
}
