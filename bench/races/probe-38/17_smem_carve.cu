// EXPECT(BUGGY): cudagraph-shared-race line 41 (also accepted: lines 39)
// Decode attention scores: one block (128 threads) per (sequence, head). Dynamic shared
// memory carved into [query: D floats][scores: T floats][stats: 32 floats].
// BUGGY: the score buffer's offset was computed in half2 units (D / 2), so it overlaps
// the second half of the query that other threads are still reading.
#include <cuda_runtime.h>
#include <cstdio>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <int D>
__global__ void decode_scores(const float* __restrict__ q, const float* __restrict__ k,
                              float* __restrict__ probs, int T) {
  extern __shared__ float smem[];
  float* s_q = smem;
#ifdef BUGGY
  float* s_scores = smem + D / 2;
#else
  float* s_scores = smem + D;
#endif
  float* s_stat = s_scores + T;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const float* qh = q + (size_t)blockIdx.x * D;
  const float* kh = k + (size_t)blockIdx.x * T * D;
  for (int d = tid; d < D; d += blockDim.x) s_q[d] = qh[d];
  __syncthreads();
  const float scale = rsqrtf((float)D);
  float m = -FLT_MAX;
  for (int t = tid; t < T; t += blockDim.x) {
    float acc = 0.f;
    for (int d = 0; d < D; ++d) acc += s_q[d] * kh[(size_t)t * D + d];  //@a
    acc *= scale;
    s_scores[t] = acc;  //@@
    m = fmaxf(m, acc);
  }
  m = warp_max(m);
  if (lane == 0) s_stat[warp] = m;
  __syncthreads();
  float gm = -FLT_MAX;
  for (int w = 0; w < (int)(blockDim.x >> 5); ++w) gm = fmaxf(gm, s_stat[w]);
  float l = 0.f;
  for (int t = tid; t < T; t += blockDim.x) {
    const float p = __expf(s_scores[t] - gm);
    s_scores[t] = p;
    l += p;
  }
  l = warp_sum(l);
  if (lane == 0) s_stat[8 + warp] = l;
  __syncthreads();
  float gl = 0.f;
  for (int w = 0; w < (int)(blockDim.x >> 5); ++w) gl += s_stat[8 + w];
  for (int t = tid; t < T; t += blockDim.x) probs[(size_t)blockIdx.x * T + t] = s_scores[t] / gl;
}

void launch_decode_scores(const float* q, const float* k, float* probs, int seqs_x_heads, int T,
                          cudaStream_t st) {
  const size_t smem = (128 + T + 32) * sizeof(float);
  decode_scores<128><<<seqs_x_heads, 128, smem, st>>>(q, k, probs, T);
}

#ifdef WITH_MAIN
int main() {
  const int bh = 8, T = 300;
  float *q, *k, *p;
  cudaMalloc(&q, bh * 128 * 4); cudaMalloc(&k, (size_t)bh * T * 128 * 4); cudaMalloc(&p, bh * T * 4);
  cudaMemset(q, 0, bh * 128 * 4); cudaMemset(k, 0, (size_t)bh * T * 128 * 4);
  launch_decode_scores(q, k, p, bh, T, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
