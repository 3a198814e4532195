// EXPECT(BUGGY): cudagraph-barrier-divergence line 38
// Fused RMSNorm + per-token int8 quantisation (SmoothQuant style): 256 threads per token.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__global__ void rmsnorm_quant(const half* __restrict__ x, const half* __restrict__ w,
                              int8_t* __restrict__ q, float* __restrict__ scale, int hidden, float eps) {
  __shared__ float s_warp[8];
  __shared__ float s_inv;
  __shared__ float s_amax;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const half* xr = x + (size_t)blockIdx.x * hidden;

  float ss = 0.f;
  for (int i = tid; i < hidden; i += blockDim.x) {
    const float v = __half2float(xr[i]);
    ss += v * v;
  }
  ss = warp_sum(ss);
  if (lane == 0) s_warp[warp] = ss;
  __syncthreads();
  if (threadIdx.x < 32) {
    float v = lane < (blockDim.x >> 5) ? s_warp[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) s_inv = rsqrtf(v / hidden + eps);
#ifdef BUGGY
    __syncthreads();  //@@
#endif
  }
#ifndef BUGGY
  __syncthreads();
#endif
  const float inv = s_inv;

  // second pass: absmax of the normalised row for the int8 scale
  float am = 0.f;
  for (int i = tid; i < hidden; i += blockDim.x)
    am = fmaxf(am, fabsf(__half2float(xr[i]) * inv * __half2float(w[i])));
  am = warp_max(am);
  if (lane == 0) s_warp[warp] = am;
  __syncthreads();
  if (threadIdx.x < 32) {
    float v = lane < (blockDim.x >> 5) ? s_warp[lane] : 0.f;
    v = warp_max(v);
    if (lane == 0) s_amax = fmaxf(v, 1e-6f);
  }
  __syncthreads();
  const float qs = 127.f / s_amax;
  for (int i = tid; i < hidden; i += blockDim.x)
    q[(size_t)blockIdx.x * hidden + i] = (int8_t)__float2int_rn(__half2float(xr[i]) * inv * __half2float(w[i]) * qs);
  if (tid == 0) scale[blockIdx.x] = s_amax / 127.f;
}

void launch_rmsnorm_quant(const half* x, const half* w, int8_t* q, float* scale, int tokens, int hidden,
                          cudaStream_t st) {
  rmsnorm_quant<<<tokens, 256, 0, st>>>(x, w, q, scale, hidden, 1e-6f);
}

#ifdef WITH_MAIN
int main() {
  const int tokens = 16, hidden = 4096;
  half *x, *w; int8_t* q; float* s;
  cudaMalloc(&x, tokens * hidden * 2); cudaMalloc(&w, hidden * 2);
  cudaMalloc(&q, tokens * hidden); cudaMalloc(&s, tokens * 4);
  cudaMemset(x, 0, tokens * hidden * 2); cudaMemset(w, 0, hidden * 2);
  launch_rmsnorm_quant(x, w, q, s, tokens, hidden, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
