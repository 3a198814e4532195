// EXPECT: cudagraph-barrier-divergence line 24
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int HD = 80;        // head dim
constexpr int BS = 96;        // rounded up to whole warps

// Fused per-head RMSNorm + rotate-half RoPE (q/k norm as in recent LLMs): one head
// per block. RoPE needs the partner element, so the normalised head is staged.
__global__ void qk_norm_rope(float* __restrict__ x, const float* __restrict__ w,
                             const float* __restrict__ cos_t, const float* __restrict__ sin_t,
                             float eps) {
  __shared__ float s[BS];
  __shared__ float sn[HD];
  __shared__ float inv_rms;
  const int d = threadIdx.x;
  const bool active = d < HD;
  float* v = x + (size_t)blockIdx.x * HD;
  const float a = active ? v[d] : 0.f;
#ifdef BUGGY
  if (active) {
    s[d] = a * a;
    __syncthreads();  // <bug>
    for (int st = 64; st > 0; st >>= 1) {
      if (d < st && d + st < HD) s[d] += s[d + st];
      __syncthreads();
    }
    if (d == 0) inv_rms = rsqrtf(s[0] / HD + eps);
    __syncthreads();
    sn[d] = a * inv_rms * w[d];
  }
#else
  s[d] = a * a;
  __syncthreads();
  for (int st = 64; st > 0; st >>= 1) {
    if (d < st && d + st < BS) s[d] += s[d + st];
    __syncthreads();
  }
  if (d == 0) inv_rms = rsqrtf(s[0] / HD + eps);
  __syncthreads();
  if (active) sn[d] = a * inv_rms * w[d];
#endif
  __syncthreads();
  if (active) {
    const int half = HD / 2;
    const float rot = d < half ? -sn[d + half] : sn[d - half];
    v[d] = sn[d] * cos_t[d] + rot * sin_t[d];
  }
}

int main() {
  const int heads = 8;
  std::vector<float> x(heads * HD), w(HD, 1.f), c(HD), s(HD);
  for (int i = 0; i < heads * HD; ++i) x[i] = (float)(i % 17) * 0.05f;
  for (int i = 0; i < HD; ++i) { c[i] = 0.8f; s[i] = 0.6f; }
  float *dx, *dw, *dc, *ds;
  cudaMalloc(&dx, x.size() * 4);
  cudaMalloc(&dw, HD * 4);
  cudaMalloc(&dc, HD * 4);
  cudaMalloc(&ds, HD * 4);
  cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, w.data(), HD * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), HD * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(ds, s.data(), HD * 4, cudaMemcpyHostToDevice);
  qk_norm_rope<<<heads, BS>>>(dx, dw, dc, ds, 1e-6f);
  cudaMemcpy(x.data(), dx, x.size() * 4, cudaMemcpyDeviceToHost);
  printf("x[0]=%f %s\n", x[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dx); cudaFree(dw); cudaFree(dc); cudaFree(ds);
  return 0;
}
