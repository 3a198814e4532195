// Matrix transposes: naive shared tile (unpadded), padded, and a 16x16 one.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaiveTile(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j]; // EXPECT: cudagraph-shared-bank-conflict
}

__global__ void transposePadded(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width)
      odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 16x16 blocks: a warp covers two tile rows, so a column read hits two
// banks per half-warp with 8 distinct words each.
__global__ void transpose16(float *out, const float *in, int n) {
  __shared__ float t[16][16];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
  t[ty][tx] = in[gy * n + gx];
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * n + blockIdx.y * 16 + tx] = t[tx][ty]; // EXPECT: cudagraph-shared-bank-conflict
}

int run_transposes(float *d_out, const float *d_in, int n, cudaStream_t s) {
  dim3 grid(n / TILE_DIM, n / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  transposeNaiveTile<<<grid, threads, 0, s>>>(d_out, d_in, n, n);
  transposePadded<<<grid, threads, 0, s>>>(d_out, d_in, n, n);
  transpose16<<<dim3(n / 16, n / 16), dim3(16, 16), 0, s>>>(d_out, d_in, n);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
