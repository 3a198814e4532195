// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int TILE = 128;
constexpr int THREADS = 160;   // warp 0 produces, warps 1-4 consume
constexpr int NT = 8;          // tiles per block

// Warp-specialised two-stage pipeline: the producer warp fills stage (t+1)&1 while
// the consumers read stage t&1; roles branch on the warp index, barriers sit at
// block-uniform points only. At the end the lower half of warp 1 combines its
// lanes' partial sums under a half-warp mask, the other lanes having left.
__global__ void roles_pipeline(const float* __restrict__ in, float* __restrict__ out,
                               float* __restrict__ sums, int ntiles_total) {
  __shared__ float stage[2][TILE];
  __shared__ float lanes[32];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int first = blockIdx.x * NT;
  if (first >= ntiles_total) return;  // whole block leaves: uniform
  if (warp == 0)
    for (int i = lane; i < TILE; i += 32) stage[0][i] = in[(size_t)first * TILE + i];
  __syncthreads();
  float part = 0.f;
  for (int t = 0; t < NT; ++t) {
    const int cur = t & 1;
    if (warp == 0) {
      if (t + 1 < NT)
        for (int i = lane; i < TILE; i += 32) stage[cur ^ 1][i] = in[(size_t)(first + t + 1) * TILE + i];
    } else {
      const int i = threadIdx.x - 32;  // 128 consumers, one element each
      const float r = stage[cur][i] * 2.f + 1.f;
      out[(size_t)(first + t) * TILE + i] = r;
      part += r;
    }
    __syncthreads();
  }
  if (warp == 1) lanes[lane] = part;
  __syncthreads();
  if (warp != 1 || lane >= 16) return;
  float s = lanes[lane] + lanes[lane + 16];
  __syncwarp(0x0000ffffu);
  lanes[lane] = s;
  __syncwarp(0x0000ffffu);
  if (lane == 0) {
    for (int k = 1; k < 16; ++k) s += lanes[k];
    sums[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 4, nt = blocks * NT;
  std::vector<float> h(nt * TILE);
  for (int i = 0; i < nt * TILE; ++i) h[i] = (float)(i % 5);
  float *din, *dout, *ds;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMalloc(&ds, blocks * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  roles_pipeline<<<blocks, THREADS>>>(din, dout, ds, nt);
  float s;
  cudaMemcpy(&s, ds, 4, cudaMemcpyDeviceToHost);
  printf("s=%f %s\n", s, cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout); cudaFree(ds);
  return 0;
}
