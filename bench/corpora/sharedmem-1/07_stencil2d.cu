// 2D 5-point / 9-point stencils on a (32,8) block with halos in shared memory.
#include <cuda_runtime.h>

constexpr int BX = 32;
constexpr int BY = 8;
constexpr int R = 2;

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void stencil_star(const float *in, float *out, int W, int H, float c0, float c1) {
  __shared__ float tile[BY + 2 * R][BX + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
  int cx = clampi(gx, 0, W - 1), cy = clampi(gy, 0, H - 1);
  tile[ty + R][tx + R] = in[cy * W + cx];
  if (tx < R) {
    tile[ty + R][tx] = in[cy * W + clampi(gx - R, 0, W - 1)];
    tile[ty + R][tx + BX + R] = in[cy * W + clampi(gx + BX, 0, W - 1)];
  }
  if (ty < R) {
    tile[ty][tx + R] = in[clampi(gy - R, 0, H - 1) * W + cx];
    tile[ty + BY + R][tx + R] = in[clampi(gy + BY, 0, H - 1) * W + cx];
  }
  __syncthreads();
  float acc = c0 * tile[ty + R][tx + R];
  for (int d = 1; d <= R; ++d)
    acc += c1 * (tile[ty + R][tx + R - d] + tile[ty + R][tx + R + d] +
                 tile[ty + R - d][tx + R] + tile[ty + R + d][tx + R]);
  if (gx < W && gy < H)
    out[gy * W + gx] = acc;
}

// Bug: the tile forgot the right-hand halo (BX + R columns instead of BX + 2R).
__global__ void stencil_row_bug(const float *in, float *out, int W, int H) {
  __shared__ float tile[BY][BX + R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
  int cy = clampi(gy, 0, H - 1);
  tile[ty][tx + R] = in[cy * W + clampi(gx, 0, W - 1)];
  if (tx < R) {
    tile[ty][tx] = in[cy * W + clampi(gx - R, 0, W - 1)];
    tile[ty][tx + BX + R] = in[cy * W + clampi(gx + BX, 0, W - 1)]; // EXPECT: cudagraph-shared-index-overflow
  }
  __syncthreads();
  float acc = 0.f;
#pragma unroll
  for (int d = -R; d <= R; ++d)
    acc += tile[ty][tx + R + d]; // EXPECT: cudagraph-shared-index-overflow
  if (gx < W && gy < H)
    out[gy * W + gx] = acc / (2 * R + 1);
}

// Bug: the lower halo load is not guarded: every row writes ty + BY + R.
__global__ void stencil_col_bug(const float *in, float *out, int W, int H) {
  __shared__ float tile[BY + 2 * R][BX];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
  int cx = clampi(gx, 0, W - 1);
  tile[ty + R][tx] = in[clampi(gy, 0, H - 1) * W + cx];
  if (ty < R)
    tile[ty][tx] = in[clampi(gy - R, 0, H - 1) * W + cx];
  tile[ty + BY + R][tx] = in[clampi(gy + BY, 0, H - 1) * W + cx]; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  float acc = 0.f;
  for (int d = -R; d <= R; ++d)
    acc += tile[ty + R + d][tx];
  if (gx < W && gy < H)
    out[gy * W + gx] = acc;
}

void run_stencils(const float *in, float *out, int W, int H, cudaStream_t s) {
  dim3 block(BX, BY);
  dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
  stencil_star<<<grid, block, 0, s>>>(in, out, W, H, 0.5f, 0.125f);
  stencil_row_bug<<<grid, block, 0, s>>>(in, out, W, H);
  stencil_col_bug<<<grid, block, 0, s>>>(in, out, W, H);
}
