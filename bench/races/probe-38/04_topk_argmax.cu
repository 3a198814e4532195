// EXPECT(BUGGY): cudagraph-barrier-divergence line 33
// Top-k over a 1024-wide logits chunk by k rounds of block argmax (sampling for small k).
// 128 threads; the row is cached in shared memory and taken entries are set to -inf.
#include <cuda_runtime.h>
#include <cstdio>
#include <cfloat>

constexpr int N = 1024;
constexpr int BS = 128;

__global__ void topk_rounds(const float* __restrict__ logits, float* __restrict__ out_v,
                            int* __restrict__ out_i, int k) {
  __shared__ float s_row[N];
  __shared__ float s_val[BS];
  __shared__ int s_idx[BS];
  const int tid = threadIdx.x;
  const float* lr = logits + (size_t)blockIdx.x * N;
  for (int c = tid; c < N; c += BS) s_row[c] = lr[c];
  __syncthreads();

  for (int r = 0; r < k; ++r) {
    float bv = -FLT_MAX;
    int bi = tid;
    for (int c = tid; c < N; c += BS)
      if (s_row[c] > bv) { bv = s_row[c]; bi = c; }
    s_val[tid] = bv;
    s_idx[tid] = bi;
    __syncthreads();
    for (int st = BS / 2; st > 0; st >>= 1) {
#ifdef BUGGY
      if (tid < st) {
        if (s_val[tid + st] > s_val[tid]) { s_val[tid] = s_val[tid + st]; s_idx[tid] = s_idx[tid + st]; }
        __syncthreads();  //@@
      } else {
        __syncthreads();
      }
#else
      if (tid < st && s_val[tid + st] > s_val[tid]) { s_val[tid] = s_val[tid + st]; s_idx[tid] = s_idx[tid + st]; }
      __syncthreads();
#endif
    }
    if (tid == 0) {
      out_v[blockIdx.x * k + r] = s_val[0];
      out_i[blockIdx.x * k + r] = s_idx[0];
      s_row[s_idx[0]] = -FLT_MAX;
    }
    __syncthreads();
  }
}

void launch_topk(const float* logits, float* v, int* i, int rows, int k, cudaStream_t st) {
  topk_rounds<<<rows, BS, 0, st>>>(logits, v, i, k);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 8, k = 4;
  float *l, *v; int* i;
  cudaMalloc(&l, rows * N * 4); cudaMalloc(&v, rows * k * 4); cudaMalloc(&i, rows * k * 4);
  cudaMemset(l, 0, rows * N * 4);
  launch_topk(l, v, i, rows, k, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
