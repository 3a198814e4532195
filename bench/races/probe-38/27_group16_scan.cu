// EXPECT: none
// Group-wise (16 elements) inclusive prefix sums and group absmax for fine-grained
// quantisation, cooperative_groups tiled_partition<16>: tile.sync() orders each
// 16-thread group's shared slots, block.sync() before the cross-group read.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void group16_scan(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ gmax) {
  __shared__ float s[256];
  __shared__ float s_gmax[16];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> g = cg::tiled_partition<16>(block);
  const int t = threadIdx.x;
  const unsigned r = g.thread_rank();
  const float v = x[(size_t)blockIdx.x * 256 + t];
  s[t] = v;
  g.sync();
  for (unsigned off = 1; off < 16; off <<= 1) {
    const float p = r >= off ? s[t - off] : 0.f;
    g.sync();
    s[t] += p;
    g.sync();
  }
  float m = fabsf(v);
  for (int o = 8; o > 0; o >>= 1) m = fmaxf(m, g.shfl_xor(m, o));
  if (r == 0) s_gmax[g.meta_group_rank()] = m;
  block.sync();
  y[(size_t)blockIdx.x * 256 + t] = s[t];
  if (t < 16) gmax[blockIdx.x * 16 + t] = s_gmax[t];
}

void launch_group16(const float* x, float* y, float* gm, int blocks, cudaStream_t st) {
  group16_scan<<<blocks, 256, 0, st>>>(x, y, gm);
}

#ifdef WITH_MAIN
int main() {
  const int blocks = 16;
  float *x, *y, *g;
  cudaMalloc(&x, blocks * 256 * 4); cudaMalloc(&y, blocks * 256 * 4); cudaMalloc(&g, blocks * 16 * 4);
  cudaMemset(x, 0, blocks * 256 * 4);
  launch_group16(x, y, g, blocks, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
