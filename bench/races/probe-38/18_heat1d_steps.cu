// EXPECT(BUGGY): cudagraph-shared-race line 22 (also accepted: lines 20)
// Temporal blocking for a 1D explicit heat equation: each 256-thread block advances its
// segment `steps` times in shared memory (halo held fixed), in place.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 256;

__global__ void heat1d_steps(const float* __restrict__ in, float* __restrict__ out, int n, int steps,
                             float alpha) {
  __shared__ float s[BS + 2];
  const int tid = threadIdx.x;
  const int g = blockIdx.x * BS + tid;
  const int i = tid + 1;
  s[i] = in[min(g, n - 1)];
  if (tid == 0) s[0] = in[max(g - 1, 0)];
  if (tid == BS - 1) s[BS + 1] = in[min(g + 1, n - 1)];
  __syncthreads();
  for (int t = 0; t < steps; ++t) {
    const float v = s[i] + alpha * (s[i - 1] - 2.f * s[i] + s[i + 1]);  //@a
    __syncthreads();
    s[i] = v;  //@@
#ifndef BUGGY
    __syncthreads();
#endif
  }
  if (g < n) out[g] = s[i];
}

void launch_heat(const float* in, float* out, int n, int steps, cudaStream_t st) {
  heat1d_steps<<<(n + BS - 1) / BS, BS, 0, st>>>(in, out, n, steps, 0.2f);
}

#ifdef WITH_MAIN
int main() {
  const int n = 2048;
  float *a, *b;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
  cudaMemset(a, 0, n * 4);
  launch_heat(a, b, n, 8, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
