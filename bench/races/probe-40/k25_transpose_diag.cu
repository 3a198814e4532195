// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TD = 32;
constexpr int BR = 8;

// Transpose with diagonal block reordering (avoids partition camping) and an
// in-place square-tile variant: for diagonal tiles the block swaps within the tile.
__global__ void transpose_diag(float* __restrict__ odata, const float* __restrict__ idata, int n) {
  __shared__ float tile[TD][TD + 1];
  const int bid_y = blockIdx.x;
  const int bid_x = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = bid_x * TD + threadIdx.x;
  int y = bid_y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * n + x];
  __syncthreads();
  x = bid_y * TD + threadIdx.x;
  y = bid_x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR) odata[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
  __syncthreads();
  // second use of the tile: transpose the (now written) diagonal tile of odata in
  // place, reading and writing only the tile's upper triangle pairs.
  if (bid_x == bid_y) {
    for (int j = 0; j < TD; j += BR) tile[threadIdx.y + j][threadIdx.x] = odata[(y + j) * n + x];
    __syncthreads();
    for (int j = 0; j < TD; j += BR) {
      const int r = threadIdx.y + j, c = threadIdx.x;
      if (c > r) {
        const float a = tile[r][c];
        tile[r][c] = tile[c][r];
        tile[c][r] = a;
      }
    }
    __syncthreads();
    for (int j = 0; j < TD; j += BR) odata[(y + j) * n + x] = tile[threadIdx.y + j][threadIdx.x];
  }
}

int main() {
  const int n = 128;
  std::vector<float> h(n * n);
  for (int i = 0; i < n * n; ++i) h[i] = (float)i;
  float *di, *dout;
  cudaMalloc(&di, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(di, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  dim3 grid(n / TD, n / TD), block(TD, BR);
  transpose_diag<<<grid, block>>>(dout, di, n);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("o[1]=%f %s\n", h[1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(di); cudaFree(dout);
  return 0;
}
