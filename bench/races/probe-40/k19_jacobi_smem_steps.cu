// EXPECT: cudagraph-shared-race line 32
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int B = 16;
constexpr int STEPS = 4;

// Block-local Jacobi smoother (as in a multigrid pre-smoother): a 16x16 subdomain
// with a frozen one-cell halo is relaxed STEPS times in shared memory.
__global__ void jacobi_smooth(const float* __restrict__ u_in, const float* __restrict__ f,
                              float* __restrict__ u_out, int nx, int ny, float h2) {
  __shared__ float u[B + 2][B + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * B + tx, gy = blockIdx.y * B + ty;
  auto at = [&](int x, int y) {
    x = x < 0 ? 0 : (x >= nx ? nx - 1 : x);
    y = y < 0 ? 0 : (y >= ny ? ny - 1 : y);
    return u_in[y * nx + x];
  };
  u[ty + 1][tx + 1] = at(gx, gy);
  if (tx == 0) u[ty + 1][0] = at(gx - 1, gy);
  if (tx == B - 1) u[ty + 1][B + 1] = at(gx + 1, gy);
  if (ty == 0) u[0][tx + 1] = at(gx, gy - 1);
  if (ty == B - 1) u[B + 1][tx + 1] = at(gx, gy + 1);
  const float rhs = f[gy * nx + gx] * h2;
  __syncthreads();
#pragma unroll
  for (int it = 0; it < STEPS; ++it) {
    const float nv = 0.25f * (u[ty][tx + 1] + u[ty + 2][tx + 1] + u[ty + 1][tx] + u[ty + 1][tx + 2] - rhs);
    __syncthreads();
    u[ty + 1][tx + 1] = nv;  // <bug>
#ifdef BUGGY
    // the next sweep reads neighbours that may not be updated yet
#else
    __syncthreads();
#endif
  }
  u_out[gy * nx + gx] = u[ty + 1][tx + 1];
}

int main() {
  const int nx = 64, ny = 64;
  std::vector<float> u(nx * ny), f(nx * ny, 1.f);
  for (int i = 0; i < nx * ny; ++i) u[i] = (float)(i % 10);
  float *du, *df, *dout;
  cudaMalloc(&du, u.size() * 4);
  cudaMalloc(&df, f.size() * 4);
  cudaMalloc(&dout, u.size() * 4);
  cudaMemcpy(du, u.data(), u.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(df, f.data(), f.size() * 4, cudaMemcpyHostToDevice);
  dim3 block(B, B), grid(nx / B, ny / B);
  jacobi_smooth<<<grid, block>>>(du, df, dout, nx, ny, 0.01f);
  cudaMemcpy(u.data(), dout, u.size() * 4, cudaMemcpyDeviceToHost);
  printf("u[65]=%f %s\n", u[65], cudaGetErrorString(cudaGetLastError()));
  cudaFree(du); cudaFree(df); cudaFree(dout);
  return 0;
}
