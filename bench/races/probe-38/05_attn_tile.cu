// EXPECT(BUGGY): cudagraph-shared-race line 31 (also accepted: lines 32,39,54)
// Flash-attention style forward tile: 32 queries x head dim 64 per block (128 threads,
// 4 threads per query row), loop over key/value tiles of 32 with an online softmax.
#include <cuda_runtime.h>
#include <cstdio>
#include <cfloat>

constexpr int BQ = 32, BK = 32, D = 64;

__global__ void attn_fwd_tile(const float* __restrict__ Q, const float* __restrict__ K,
                              const float* __restrict__ V, float* __restrict__ O, int seq_len, float scale) {
  __shared__ float sQ[BQ][D + 1];
  __shared__ float sK[BK][D + 1];
  __shared__ float sV[BK][D];
  __shared__ float sP[BQ][BK + 1];
  const int tid = threadIdx.x;
  const size_t head_off = (size_t)blockIdx.y * seq_len * D;
  const float* Qh = Q + head_off + (size_t)blockIdx.x * BQ * D;
  const float* Kh = K + head_off;
  const float* Vh = V + head_off;
  for (int i = tid; i < BQ * D; i += 128) sQ[i / D][i % D] = Qh[i];

  const int qr = tid >> 2, part = tid & 3;
  float m = -FLT_MAX, l = 0.f;
  float acc[16];
  for (int d = 0; d < 16; ++d) acc[d] = 0.f;

  const int n_tiles = seq_len / BK;
  for (int t = 0; t < n_tiles; ++t) {
    for (int i = tid; i < BK * D; i += 128) {
      sK[i / D][i % D] = Kh[(size_t)t * BK * D + i];  //@@
      sV[i / D][i % D] = Vh[(size_t)t * BK * D + i];  //@a
    }
    __syncthreads();
    float mt = -FLT_MAX;
    for (int jj = 0; jj < 8; ++jj) {
      const int j = part * 8 + jj;
      float s = 0.f;
      for (int d = 0; d < D; ++d) s += sQ[qr][d] * sK[j][d];  //@a
      s *= scale;
      sP[qr][j] = s;
      mt = fmaxf(mt, s);
    }
    mt = fmaxf(mt, __shfl_xor_sync(0xffffffffu, mt, 1));
    mt = fmaxf(mt, __shfl_xor_sync(0xffffffffu, mt, 2));
    __syncwarp();
    const float mnew = fmaxf(m, mt);
    const float corr = __expf(m - mnew);
    l *= corr;
    for (int d = 0; d < 16; ++d) acc[d] *= corr;
    for (int j = 0; j < BK; ++j) {
      const float p = __expf(sP[qr][j] - mnew);
      l += p;
      for (int d = 0; d < 16; ++d) acc[d] += p * sV[j][part * 16 + d];  //@a
    }
    m = mnew;
#ifndef BUGGY
    __syncthreads();
#endif
  }
  float* Oh = O + head_off + (size_t)(blockIdx.x * BQ + qr) * D + part * 16;
  for (int d = 0; d < 16; ++d) Oh[d] = acc[d] / l;
}

void launch_attn(const float* Q, const float* K, const float* V, float* O, int heads, int seq_len,
                 cudaStream_t st) {
  dim3 grid(seq_len / BQ, heads);
  attn_fwd_tile<<<grid, 128, 0, st>>>(Q, K, V, O, seq_len, 0.125f);
}

#ifdef WITH_MAIN
int main() {
  const int heads = 2, seq = 128;
  const size_t n = (size_t)heads * seq * D;
  float *q, *k, *v, *o;
  cudaMalloc(&q, n * 4); cudaMalloc(&k, n * 4); cudaMalloc(&v, n * 4); cudaMalloc(&o, n * 4);
  cudaMemset(q, 0, n * 4); cudaMemset(k, 0, n * 4); cudaMemset(v, 0, n * 4);
  launch_attn(q, k, v, o, heads, seq, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
