// EXPECT: none
// Causal attention row sums (denominators) for 32-query tiles: query tile b visits key
// tiles 0..b, a trip count that depends on blockIdx only (uniform in the block); the
// diagonal tile masks per thread without touching the barriers; a __syncthreads_or vote
// flags non-finite rows.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BQ = 32, D = 64;

__global__ void causal_denominators(const float* __restrict__ Q, const float* __restrict__ K,
                                    float* __restrict__ denom, int* __restrict__ bad_tile, float scale) {
  __shared__ float sQ[BQ][D + 1];
  __shared__ float sK[BQ][D + 1];
  const int tid = threadIdx.x;            // 128 threads: 4 per query row
  const int qr = tid >> 2, part = tid & 3;
  const int qt = blockIdx.x;
  for (int i = tid; i < BQ * D; i += 128) sQ[i / D][i % D] = Q[(size_t)qt * BQ * D + i];
  float l = 0.f;
  for (int kt = 0; kt <= qt; ++kt) {
    for (int i = tid; i < BQ * D; i += 128) sK[i / D][i % D] = K[(size_t)kt * BQ * D + i];
    __syncthreads();
    for (int jj = 0; jj < 8; ++jj) {
      const int j = part * 8 + jj;
      if (kt == qt && j > qr) continue;  // causal mask on the diagonal tile
      float s = 0.f;
      for (int d = 0; d < D; ++d) s += sQ[qr][d] * sK[j][d];
      l += __expf(s * scale);
    }
    __syncthreads();
  }
  l += __shfl_xor_sync(0xffffffffu, l, 1);
  l += __shfl_xor_sync(0xffffffffu, l, 2);
  const int any_bad = __syncthreads_or(!isfinite(l));
  if (part == 0) denom[qt * BQ + qr] = l;
  if (tid == 0 && any_bad) bad_tile[qt] = 1;
}

void launch_causal(const float* Q, const float* K, float* denom, int* bad, int seq, cudaStream_t st) {
  causal_denominators<<<seq / BQ, 128, 0, st>>>(Q, K, denom, bad, 0.125f);
}

#ifdef WITH_MAIN
int main() {
  const int seq = 256;
  float *q, *k, *d; int* b;
  cudaMalloc(&q, seq * D * 4); cudaMalloc(&k, seq * D * 4); cudaMalloc(&d, seq * 4); cudaMalloc(&b, (seq / BQ) * 4);
  cudaMemset(q, 0, seq * D * 4); cudaMemset(k, 0, seq * D * 4); cudaMemset(b, 0, (seq / BQ) * 4);
  launch_causal(q, k, d, b, seq, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
