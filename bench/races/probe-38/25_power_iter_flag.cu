// EXPECT: none
// Per-block power iteration on a 32x32 matrix held in shared memory (e.g. spectral norm
// estimate for weight normalisation), 32x8 threads, stopping on a convergence flag that
// thread 0 publishes in shared memory: the loop condition is block-uniform.
#include <cuda_runtime.h>
#include <cstdio>

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void power_iter(const float* __restrict__ A, float* __restrict__ sigma, int max_iter, float tol) {
  __shared__ float sA[32][33];
  __shared__ float sx[32], sy[32];
  __shared__ float s_norm;
  __shared__ int s_done;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* Ab = A + (size_t)blockIdx.x * 32 * 32;
  for (int r = ty; r < 32; r += 8) sA[r][tx] = Ab[r * 32 + tx];
  if (ty == 0) sx[tx] = 1.f;
  if (tx == 0 && ty == 0) { s_done = 0; s_norm = 0.f; }
  __syncthreads();
  int it = 0;
  while (!s_done && it < max_iter) {
    for (int r = ty; r < 32; r += 8) {
      const float p = warp_sum(sA[r][tx] * sx[tx]);
      if (tx == 0) sy[r] = p;
    }
    __syncthreads();
    if (ty == 0) {
      const float v = sy[tx];
      const float nn = warp_sum(v * v);
      if (tx == 0) s_norm = sqrtf(nn);
    }
    __syncthreads();
    if (ty == 0) {
      const float nx = sy[tx] / (s_norm + 1e-20f);
      const float diff = warp_sum(fabsf(nx - sx[tx]));
      sx[tx] = nx;
      if (tx == 0) s_done = diff < tol;
    }
    __syncthreads();
    ++it;
  }
  if (tx == 0 && ty == 0) sigma[blockIdx.x] = s_norm;
}

void launch_power_iter(const float* A, float* sigma, int n_mats, cudaStream_t st) {
  power_iter<<<n_mats, dim3(32, 8), 0, st>>>(A, sigma, 50, 1e-5f);
}

#ifdef WITH_MAIN
int main() {
  const int n = 8;
  float *A, *s;
  cudaMalloc(&A, n * 1024 * 4); cudaMalloc(&s, n * 4);
  cudaMemset(A, 0, n * 1024 * 4);
  launch_power_iter(A, s, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
