// EXPECT(BUGGY): cudagraph-barrier-divergence line 16
// LayerNorm over hidden = 1024 with a hand-written tree block reduction (256 threads,
// 4 elements per thread kept in registers).
#include <cuda_runtime.h>
#include <cstdio>

template <int BS>
__device__ float block_sum(float v, float* s) {
  const int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (int st = BS / 2; st > 0; st >>= 1) {
#ifdef BUGGY
    if (tid < st) {
      s[tid] += s[tid + st];
      __syncthreads();  //@@
    }
#else
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
#endif
  }
  const float r = s[0];
  __syncthreads();  // s is reused by the next call
  return r;
}

__global__ void layernorm_1024(const float4* __restrict__ x, const float4* __restrict__ gamma,
                               const float4* __restrict__ beta, float4* __restrict__ y, float eps) {
  __shared__ float s_red[256];
  const int tid = threadIdx.x;
  const float4 v = x[(size_t)blockIdx.x * 256 + tid];
  const float mean = block_sum<256>(v.x + v.y + v.z + v.w, s_red) * (1.f / 1024.f);
  const float dx = v.x - mean, dy = v.y - mean, dz = v.z - mean, dw = v.w - mean;
  const float var = block_sum<256>(dx * dx + dy * dy + dz * dz + dw * dw, s_red) * (1.f / 1024.f);
  const float rstd = rsqrtf(var + eps);
  const float4 g = gamma[tid], b = beta[tid];
  y[(size_t)blockIdx.x * 256 + tid] =
      make_float4(dx * rstd * g.x + b.x, dy * rstd * g.y + b.y, dz * rstd * g.z + b.z, dw * rstd * g.w + b.w);
}

void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                      cudaStream_t st) {
  layernorm_1024<<<rows, 256, 0, st>>>((const float4*)x, (const float4*)gamma, (const float4*)beta,
                                       (float4*)y, 1e-5f);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 32;
  float *x, *g, *b, *y;
  cudaMalloc(&x, rows * 1024 * 4); cudaMalloc(&y, rows * 1024 * 4);
  cudaMalloc(&g, 1024 * 4); cudaMalloc(&b, 1024 * 4);
  cudaMemset(x, 0, rows * 1024 * 4); cudaMemset(g, 0, 4096); cudaMemset(b, 0, 4096);
  launch_layernorm(x, g, b, y, rows, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
