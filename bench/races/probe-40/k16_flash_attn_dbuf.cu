// EXPECT: cudagraph-shared-race line 39
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <vector>

constexpr int D = 32;        // head dim
constexpr int TK = 32;       // keys per tile
constexpr int THREADS = 128; // one query per thread

// Single-head attention forward with online softmax; K/V tiles are double-buffered
// in shared memory (tile t+1 is fetched while tile t is consumed).
__global__ void attn_fwd(const float* __restrict__ Q, const float* __restrict__ K,
                         const float* __restrict__ V, float* __restrict__ O, int seq_len) {
  __shared__ float Ks[2][TK][D];
  __shared__ float Vs[2][TK][D];
  const int tid = threadIdx.x;
  const int qi = blockIdx.x * THREADS + tid;
  float q[D], acc[D];
#pragma unroll
  for (int d = 0; d < D; ++d) {
    q[d] = Q[(size_t)qi * D + d] * 0.17677669f;
    acc[d] = 0.f;
  }
  float m = -FLT_MAX, l = 0.f;
  const int ntiles = seq_len / TK;

  for (int e = tid; e < TK * D; e += THREADS) {
    Ks[0][e / D][e % D] = K[e];
    Vs[0][e / D][e % D] = V[e];
  }
  __syncthreads();
  for (int t = 0; t < ntiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < ntiles) {
      const float* kn = K + (size_t)(t + 1) * TK * D;
      const float* vn = V + (size_t)(t + 1) * TK * D;
      for (int e = tid; e < TK * D; e += THREADS) {
        Ks[cur ^ 1][e / D][e % D] = kn[e];  // <bug>
        Vs[cur ^ 1][e / D][e % D] = vn[e];
      }
    }
    for (int j = 0; j < TK; ++j) {
      float sc = 0.f;
#pragma unroll
      for (int d = 0; d < D; ++d) sc += q[d] * Ks[cur][j][d];
      const float mn = fmaxf(m, sc);
      const float corr = __expf(m - mn), p = __expf(sc - mn);
      l = l * corr + p;
#pragma unroll
      for (int d = 0; d < D; ++d) acc[d] = acc[d] * corr + p * Vs[cur][j][d];
      m = mn;
    }
#ifdef BUGGY
    // one barrier per tile was dropped "because the buffers alternate"
#else
    __syncthreads();
#endif
  }
#pragma unroll
  for (int d = 0; d < D; ++d) O[(size_t)qi * D + d] = acc[d] / l;
}

int main() {
  const int seq = 256, nq = 256;
  std::vector<float> q(nq * D), k(seq * D), v(seq * D), o(nq * D);
  for (int i = 0; i < nq * D; ++i) q[i] = (float)(i % 9) * 0.1f;
  for (int i = 0; i < seq * D; ++i) { k[i] = (float)(i % 7) * 0.1f; v[i] = (float)(i % 5); }
  float *dq, *dk, *dv, *dout;
  cudaMalloc(&dq, q.size() * 4);
  cudaMalloc(&dk, k.size() * 4);
  cudaMalloc(&dv, v.size() * 4);
  cudaMalloc(&dout, o.size() * 4);
  cudaMemcpy(dq, q.data(), q.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, k.data(), k.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice);
  attn_fwd<<<nq / THREADS, THREADS>>>(dq, dk, dv, dout, seq);
  cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost);
  printf("o[0]=%f %s\n", o[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dq); cudaFree(dk); cudaFree(dv); cudaFree(dout);
  return 0;
}
