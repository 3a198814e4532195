// EXPECT(BUGGY): cudagraph-shared-race line 48 (also accepted: lines 42,43,53)
// Split-KV decode attention (flash-decoding): one 128-thread block per (head, split); each
// warp walks every 4th key with an online softmax, then the 4 warps' partial states are
// merged through shared memory (thread d owns output dim d, D = 128).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cfloat>

constexpr int D = 128, WARPS = 4;

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void decode_attn_split(const half* __restrict__ q, const half* __restrict__ k,
                                  const half* __restrict__ v, float* __restrict__ o_part,
                                  float* __restrict__ lse_part, int T, int split_len, float scale) {
  __shared__ float s_q[D];
  __shared__ float s_acc[WARPS][D];
  __shared__ float s_m[WARPS], s_l[WARPS];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int head = blockIdx.x, split = blockIdx.y;
  const half* qh = q + (size_t)head * D;
  const half* kh = k + (size_t)head * T * D;
  const half* vh = v + (size_t)head * T * D;
  for (int d = tid; d < D; d += blockDim.x) s_q[d] = __half2float(qh[d]) * scale;
  __syncthreads();

  const int t0 = split * split_len, t1 = min(T, t0 + split_len);
  float m = -FLT_MAX, l = 0.f, acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = t0 + warp; t < t1; t += WARPS) {
    float s = 0.f;
    for (int r = 0; r < 4; ++r) s += s_q[lane + 32 * r] * __half2float(kh[(size_t)t * D + lane + 32 * r]);
    s = warp_sum(s);
    const float mn = fmaxf(m, s), c = __expf(m - mn), p = __expf(s - mn);
    l = l * c + p;
    for (int r = 0; r < 4; ++r) acc[r] = acc[r] * c + p * __half2float(vh[(size_t)t * D + lane + 32 * r]);
    m = mn;
  }
  for (int r = 0; r < 4; ++r) s_acc[warp][lane + 32 * r] = acc[r];  //@a
  if (lane == 0) { s_m[warp] = m; s_l[warp] = l; }  //@a
#ifndef BUGGY
  __syncthreads();
#endif
  float M = -FLT_MAX;
  for (int w = 0; w < WARPS; ++w) M = fmaxf(M, s_m[w]);  //@@
  float L = 0.f, O = 0.f;
  for (int w = 0; w < WARPS; ++w) {
    const float c = __expf(s_m[w] - M);
    L += s_l[w] * c;
    O += s_acc[w][tid] * c;  //@a
  }
  const size_t idx = (size_t)head * gridDim.y + split;
  o_part[idx * D + tid] = O / L;
  if (tid == 0) lse_part[idx] = M + __logf(L);
}

void launch_decode_split(const half* q, const half* k, const half* v, float* o_part, float* lse, int heads,
                         int T, int splits, cudaStream_t st) {
  const int split_len = (T + splits - 1) / splits;
  dim3 grid(heads, splits);
  decode_attn_split<<<grid, WARPS * 32, 0, st>>>(q, k, v, o_part, lse, T, split_len, 0.08838834764f);
}

#ifdef WITH_MAIN
int main() {
  const int heads = 4, T = 512, splits = 4;
  half *q, *k, *v; float *o, *l;
  cudaMalloc(&q, heads * D * 2); cudaMalloc(&k, (size_t)heads * T * D * 2); cudaMalloc(&v, (size_t)heads * T * D * 2);
  cudaMalloc(&o, heads * splits * D * 4); cudaMalloc(&l, heads * splits * 4);
  cudaMemset(q, 0, heads * D * 2); cudaMemset(k, 0, (size_t)heads * T * D * 2); cudaMemset(v, 0, (size_t)heads * T * D * 2);
  launch_decode_split(q, k, v, o, l, heads, T, splits, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
