// EXPECT(BUGGY): cudagraph-shared-race line 29 (also accepted: lines 20)
// 2D 5-point stencil (one Jacobi sweep) with a 16x16 tile plus a one-cell halo loaded
// by the edge threads; clamped boundary.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int B = 16;

__device__ __forceinline__ float ld_clamped(const float* in, int x, int y, int W, int H) {
  x = min(max(x, 0), W - 1);
  y = min(max(y, 0), H - 1);
  return in[(size_t)y * W + x];
}

__global__ void stencil5(const float* __restrict__ in, float* __restrict__ out, int W, int H, float c0,
                         float c1) {
  __shared__ float tile[B + 2][B + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * B + tx, gy = blockIdx.y * B + ty;
  tile[ty + 1][tx + 1] = ld_clamped(in, gx, gy, W, H);  //@a
  if (tx == 0) tile[ty + 1][0] = ld_clamped(in, gx - 1, gy, W, H);
  if (tx == B - 1) tile[ty + 1][B + 1] = ld_clamped(in, gx + 1, gy, W, H);
  if (ty == 0) tile[0][tx + 1] = ld_clamped(in, gx, gy - 1, W, H);
  if (ty == B - 1) tile[B + 1][tx + 1] = ld_clamped(in, gx, gy + 1, W, H);
#ifndef BUGGY
  __syncthreads();
#endif
  const float v = c0 * tile[ty + 1][tx + 1] +
                  c1 * (tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1]);  //@@
  if (gx < W && gy < H) out[(size_t)gy * W + gx] = v;
}

void launch_stencil(const float* in, float* out, int W, int H, cudaStream_t st) {
  dim3 block(B, B), grid((W + B - 1) / B, (H + B - 1) / B);
  stencil5<<<grid, block, 0, st>>>(in, out, W, H, 0.5f, 0.125f);
}

#ifdef WITH_MAIN
int main() {
  const int W = 64, H = 48;
  float *a, *b;
  cudaMalloc(&a, W * H * 4); cudaMalloc(&b, W * H * 4);
  cudaMemset(a, 0, W * H * 4);
  launch_stencil(a, b, W, H, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
