// EXPECT: cudagraph-shared-race line 25
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

// Coalesced transpose through a padded shared tile; each thread moves 4 elements.
__global__ void transpose(float* __restrict__ odata, const float* __restrict__ idata, int width,
                          int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
#ifdef BUGGY
  // no barrier between the tile's writers and its transposed readers
#else
  __syncthreads();
#endif
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];  // <bug>
}

int main() {
  const int W = 256, H = 128;
  std::vector<float> h(W * H);
  for (int i = 0; i < W * H; ++i) h[i] = (float)i;
  float *di, *dout;
  cudaMalloc(&di, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(di, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  dim3 grid(W / TILE_DIM, H / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  transpose<<<grid, block>>>(dout, di, W, H);
  cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost);
  printf("t[1]=%f %s\n", h[1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(di); cudaFree(dout);
  return 0;
}
