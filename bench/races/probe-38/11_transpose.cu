// EXPECT(BUGGY): cudagraph-shared-race line 18 (also accepted: lines 12)
// Tiled matrix transpose, 32x32 tile with padding, 32x8 threads (W, H multiples of 32).
#include <cuda_runtime.h>
#include <cstdio>

constexpr int TD = 32, BR = 8;

__global__ void transpose_tiled(float* __restrict__ out, const float* __restrict__ in, int W, int H) {
  __shared__ float tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x;
  int y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * W + x];  //@a
#ifndef BUGGY
  __syncthreads();
#endif
  x = blockIdx.y * TD + threadIdx.x;
  y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR) out[(size_t)(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];  //@@
}

void launch_transpose(float* out, const float* in, int W, int H, cudaStream_t st) {
  dim3 grid(W / TD, H / TD), block(TD, BR);
  transpose_tiled<<<grid, block, 0, st>>>(out, in, W, H);
}

#ifdef WITH_MAIN
int main() {
  const int W = 128, H = 64;
  float *a, *b;
  cudaMalloc(&a, W * H * 4); cudaMalloc(&b, W * H * 4);
  cudaMemset(a, 0, W * H * 4);
  launch_transpose(b, a, W, H, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
