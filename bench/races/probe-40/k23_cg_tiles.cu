// EXPECT: none
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

// Grouped mean of 16-element groups (e.g. per-group quantisation scales): every
// 16-lane tile owns a private slice of shared memory and synchronises only itself;
// the block then folds the per-tile maxima for a block-wide scale.
__global__ void group_scales(const float* __restrict__ x, float* __restrict__ group_mean,
                             float* __restrict__ block_absmax) {
  __shared__ float stage[256];
  __shared__ float tile_max[16];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  const int t = block.thread_rank();
  const int g = tile.meta_group_rank();
  const float v = x[blockIdx.x * 256 + t];
  stage[t] = v;
  tile.sync();
  // the tile's own 16 slots, read back rotated (a register-free transpose step)
  const float rot = stage[g * 16 + ((tile.thread_rank() + 5) & 15)];
  float sum = cg::reduce(tile, rot, cg::plus<float>());
  float amax = cg::reduce(tile, fabsf(v), cg::greater<float>());
  if (tile.thread_rank() == 0) {
    group_mean[blockIdx.x * 16 + g] = sum / 16.f;
    tile_max[g] = amax;
  }
  block.sync();
  if (g == 0) {
    float m = tile_max[tile.thread_rank()];
    m = cg::reduce(tile, m, cg::greater<float>());
    if (tile.thread_rank() == 0) block_absmax[blockIdx.x] = m;
  }
}

int main() {
  const int blocks = 8;
  std::vector<float> h(blocks * 256);
  for (int i = 0; i < blocks * 256; ++i) h[i] = (float)((i % 31) - 15);
  float *dx, *dm, *da;
  cudaMalloc(&dx, h.size() * 4);
  cudaMalloc(&dm, blocks * 16 * 4);
  cudaMalloc(&da, blocks * 4);
  cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  group_scales<<<blocks, 256>>>(dx, dm, da);
  float r;
  cudaMemcpy(&r, da, 4, cudaMemcpyDeviceToHost);
  printf("absmax=%f %s\n", r, cudaGetErrorString(cudaGetLastError()));
  cudaFree(dx); cudaFree(dm); cudaFree(da);
  return 0;
}
