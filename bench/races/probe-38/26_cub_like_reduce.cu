// EXPECT: none
// Mean / variance per row with a hand-written CUB-like BlockReduce (TempStorage in shared
// memory, result valid in thread 0) used twice; the broadcast barrier also makes the temp
// storage reusable, as CUB's documentation requires.
#include <cuda_runtime.h>
#include <cstdio>

template <int BLOCK>
struct BlockReduceSum {
  struct TempStorage { float warp[BLOCK / 32]; };
  TempStorage& ts;
  __device__ explicit BlockReduceSum(TempStorage& t) : ts(t) {}
  __device__ float Sum(float v) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) ts.warp[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < BLOCK / 32 ? ts.warp[lane] : 0.f;
      for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
  }
};

template <int BLOCK>
__global__ void row_mean_var(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ var,
                             int cols) {
  using BR = BlockReduceSum<BLOCK>;
  __shared__ typename BR::TempStorage tmp;
  __shared__ float s_mean;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float a = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) a += xr[c];
  const float tot = BR(tmp).Sum(a);
  if (threadIdx.x == 0) s_mean = tot / cols;
  __syncthreads();
  const float mu = s_mean;
  float b = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) { const float d = xr[c] - mu; b += d * d; }
  const float sq = BR(tmp).Sum(b);
  if (threadIdx.x == 0) { mean[blockIdx.x] = mu; var[blockIdx.x] = sq / cols; }
}

void launch_mean_var(const float* x, float* mean, float* var, int rows, int cols, cudaStream_t st) {
  row_mean_var<256><<<rows, 256, 0, st>>>(x, mean, var, cols);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 16, cols = 3000;
  float *x, *m, *v;
  cudaMalloc(&x, rows * cols * 4); cudaMalloc(&m, rows * 4); cudaMalloc(&v, rows * 4);
  cudaMemset(x, 0, rows * cols * 4);
  launch_mean_var(x, m, v, rows, cols, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
