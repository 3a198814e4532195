// EXPECT(BUGGY): cudagraph-barrier-divergence line 28
// Top-k of 256 candidate logits per row by a shared-memory bitonic sort (descending),
// 256 threads, one compare-exchange per thread pair and step.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int NS = 256;

__global__ void bitonic_topk(const float* __restrict__ x, float* __restrict__ out_v, int* __restrict__ out_i,
                             int k) {
  __shared__ float s_v[NS];
  __shared__ int s_i[NS];
  const unsigned tid = threadIdx.x;
  s_v[tid] = x[(size_t)blockIdx.x * NS + tid];
  s_i[tid] = tid;
  __syncthreads();
  for (unsigned size = 2; size <= NS; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      const unsigned p = tid ^ stride;
      if (p > tid) {
        const bool desc = (tid & size) == 0;
        const float a = s_v[tid], b = s_v[p];
        if ((a < b) == desc) {
          s_v[tid] = b; s_v[p] = a;
          const int t = s_i[tid]; s_i[tid] = s_i[p]; s_i[p] = t;
        }
#ifdef BUGGY
        __syncthreads();  //@@
#endif
      }
#ifndef BUGGY
      __syncthreads();
#endif
    }
  }
  if ((int)tid < k) {
    out_v[blockIdx.x * k + tid] = s_v[tid];
    out_i[blockIdx.x * k + tid] = s_i[tid];
  }
}

void launch_bitonic_topk(const float* x, float* v, int* i, int rows, int k, cudaStream_t st) {
  bitonic_topk<<<rows, NS, 0, st>>>(x, v, i, k);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 8, k = 8;
  float *x, *v; int* i;
  cudaMalloc(&x, rows * NS * 4); cudaMalloc(&v, rows * k * 4); cudaMalloc(&i, rows * k * 4);
  cudaMemset(x, 0, rows * NS * 4);
  launch_bitonic_topk(x, v, i, rows, k, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
