// EXPECT: none
// Block-local Jacobi smoother (e.g. a multigrid smoother on 16x16 patches): ping-pong
// shared buffers, one barrier per sweep is enough because each sweep writes the other buffer.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int B = 16;

__global__ void jacobi_patch(const float* __restrict__ in, float* __restrict__ out, int W, int sweeps) {
  __shared__ float s[2][B + 2][B + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * B, y0 = blockIdx.y * B;
  // both buffers get the patch and the (fixed) boundary ring
  for (int i = ty * B + tx; i < (B + 2) * (B + 2); i += B * B) {
    const int yy = i / (B + 2), xx = i % (B + 2);
    const int gx = min(max(x0 + xx - 1, 0), W - 1), gy = min(max(y0 + yy - 1, 0), W - 1);
    const float v = in[(size_t)gy * W + gx];
    s[0][yy][xx] = v;
    s[1][yy][xx] = v;
  }
  __syncthreads();
  for (int it = 0; it < sweeps; ++it) {
    const int src = it & 1, dst = src ^ 1;
    s[dst][ty + 1][tx + 1] =
        0.25f * (s[src][ty][tx + 1] + s[src][ty + 2][tx + 1] + s[src][ty + 1][tx] + s[src][ty + 1][tx + 2]);
    __syncthreads();
  }
  out[(size_t)(y0 + ty) * W + x0 + tx] = s[sweeps & 1][ty + 1][tx + 1];
}

void launch_jacobi(const float* in, float* out, int W, int sweeps, cudaStream_t st) {
  dim3 block(B, B), grid(W / B, W / B);
  jacobi_patch<<<grid, block, 0, st>>>(in, out, W, sweeps);
}

#ifdef WITH_MAIN
int main() {
  const int W = 64;
  float *a, *b;
  cudaMalloc(&a, W * W * 4); cudaMalloc(&b, W * W * 4);
  cudaMemset(a, 0, W * W * 4);
  launch_jacobi(a, b, W, 6, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
