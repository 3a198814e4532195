// EXPECT: cudagraph-barrier-divergence line 34
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include <vector>

constexpr int COLS = 1000;  // vocabulary slice per row
constexpr int BS = 256;

// Greedy sampling: argmax of each row chunk by chunk (shared candidates), then a
// one-hot mask of the winner.
__global__ void argmax_onehot(const float* __restrict__ logits, float* __restrict__ onehot,
                              int* __restrict__ arg_out) {
  __shared__ float sv[BS];
  __shared__ int si[BS];
  __shared__ float best_v;
  __shared__ int best_i;
  const int tid = threadIdx.x;
  const float* row = logits + (size_t)blockIdx.x * COLS;
  if (tid == 0) {
    best_v = -FLT_MAX;
    best_i = 0;
  }
#ifdef BUGGY
  for (int c = tid; c < COLS; c += BS) {  // threads 232-255 run one chunk fewer
    sv[tid] = row[c];
    si[tid] = c;
#else
  for (int base = 0; base < COLS; base += BS) {
    const int c = base + tid;
    sv[tid] = c < COLS ? row[c] : -FLT_MAX;
    si[tid] = c;
#endif
    __syncthreads();  // <bug>
    for (int st = BS / 2; st > 0; st >>= 1) {
      if (tid < st && sv[tid + st] > sv[tid]) {
        sv[tid] = sv[tid + st];
        si[tid] = si[tid + st];
      }
      __syncthreads();
    }
    if (tid == 0 && sv[0] > best_v) {
      best_v = sv[0];
      best_i = si[0];
    }
    __syncthreads();
  }
  __syncthreads();
  const int arg = best_i;
  for (int c = tid; c < COLS; c += BS) onehot[(size_t)blockIdx.x * COLS + c] = c == arg ? 1.f : 0.f;
  if (tid == 0) arg_out[blockIdx.x] = arg;
}

int main() {
  const int rows = 4;
  std::vector<float> h(rows * COLS);
  for (int i = 0; i < rows * COLS; ++i) h[i] = (float)((i * 613) % 997);
  float *dl, *doh;
  int* da;
  cudaMalloc(&dl, h.size() * 4);
  cudaMalloc(&doh, h.size() * 4);
  cudaMalloc(&da, rows * 4);
  cudaMemcpy(dl, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  argmax_onehot<<<rows, BS>>>(dl, doh, da);
  int a[rows];
  cudaMemcpy(a, da, sizeof(a), cudaMemcpyDeviceToHost);
  printf("arg0=%d %s\n", a[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dl); cudaFree(doh); cudaFree(da);
  return 0;
}
