// EXPECT(BUGGY): cudagraph-barrier-divergence line 16
// Small-batch decode: 64-thread blocks sum 64 partial logits each. Warp 0 folds warp 1
// into itself, then the low half-warp finishes with shuffles.
// BUGGY: the author wrote the half-warp mask on the __syncwarp that the whole warp executes.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void sum64(const float* __restrict__ x, float* __restrict__ out) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  s[tid] = x[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
#ifdef BUGGY
    __syncwarp(0x0000ffffu);  //@@
#else
    __syncwarp();
#endif
    if (tid < 16) {
      float v = s[tid] + s[tid + 16];
      for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0x0000ffffu, v, o);
      if (tid == 0) out[blockIdx.x] = v;
    }
  }
}

void launch_sum64(const float* x, float* out, int rows, cudaStream_t st) {
  sum64<<<rows, 64, 0, st>>>(x, out);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 32;
  float *x, *o;
  cudaMalloc(&x, rows * 64 * 4); cudaMalloc(&o, rows * 4);
  cudaMemset(x, 0, rows * 64 * 4);
  launch_sum64(x, o, rows, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
