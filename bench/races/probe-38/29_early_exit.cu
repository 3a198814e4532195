// EXPECT: none
// Two kernels with early exits before the barriers (fine on sm_70+: exited threads no
// longer count at __syncthreads):
//  * rope_cache_smooth: tail threads of the last block return, the rest stage their
//    values in shared memory and read a neighbour that is guaranteed to be live;
//  * row_l2norm: whole blocks past the last row return (block-uniform), the rest reduce.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 256;

__global__ void rope_cache_smooth(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float s_x[BS];
  const int gid = blockIdx.x * BS + threadIdx.x;
  if (gid >= n) return;
  s_x[threadIdx.x] = x[gid];
  __syncthreads();
  const int nb = threadIdx.x + 1;
  const float right = (nb < BS && gid + 1 < n) ? s_x[nb] : s_x[threadIdx.x];
  y[gid] = 0.5f * (s_x[threadIdx.x] + right);
}

__global__ void row_l2norm(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  __shared__ float s_part[BS / 32];
  __shared__ float s_inv;
  const int row = blockIdx.x * blockDim.y + threadIdx.y;  // blockDim.y == 1 here
  if (row >= rows) return;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += BS) ss += x[(size_t)row * cols + c] * x[(size_t)row * cols + c];
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if (lane == 0) s_part[warp] = ss;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < BS / 32; ++w) t += s_part[w];
    s_inv = rsqrtf(t + 1e-12f);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += BS) y[(size_t)row * cols + c] = x[(size_t)row * cols + c] * s_inv;
}

void launch_early_exit(const float* x, float* y, int n, const float* m, float* mo, int rows, int cols,
                       int grid_rows, cudaStream_t st) {
  rope_cache_smooth<<<(n + BS - 1) / BS, BS, 0, st>>>(x, y, n);
  row_l2norm<<<grid_rows, dim3(BS, 1), 0, st>>>(m, mo, rows, cols);
}

#ifdef WITH_MAIN
int main() {
  const int n = 1000, rows = 10, cols = 700;
  float *x, *y, *m, *mo;
  cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4); cudaMalloc(&m, rows * cols * 4); cudaMalloc(&mo, rows * cols * 4);
  cudaMemset(x, 0, n * 4); cudaMemset(m, 0, rows * cols * 4);
  launch_early_exit(x, y, n, m, mo, rows, cols, 12, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
