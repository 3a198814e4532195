// EXPECT(BUGGY): cudagraph-shared-race line 24 (also accepted: lines 17)
// Dot product with cooperative_groups: tiled_partition<32> shuffles, per-warp partials in
// shared memory, first warp folds them (256 threads).
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void dot_cg(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                       int n) {
  __shared__ float s_warp[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float sum = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += a[i] * b[i];
  for (int o = tile.size() / 2; o > 0; o >>= 1) sum += tile.shfl_down(sum, o);
  if (tile.thread_rank() == 0) s_warp[tile.meta_group_rank()] = sum;  //@a
#ifdef BUGGY
  tile.sync();
#else
  block.sync();
#endif
  if (tile.meta_group_rank() == 0) {
    sum = tile.thread_rank() < tile.meta_group_size() ? s_warp[tile.thread_rank()] : 0.f;  //@@
    for (int o = tile.size() / 2; o > 0; o >>= 1) sum += tile.shfl_down(sum, o);
    if (tile.thread_rank() == 0) atomicAdd(out, sum);
  }
}

void launch_dot(const float* a, const float* b, float* out, int n, cudaStream_t st) {
  dot_cg<<<32, 256, 0, st>>>(a, b, out, n);
}

#ifdef WITH_MAIN
int main() {
  const int n = 1 << 16;
  float *a, *b, *o;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&o, 4);
  cudaMemset(a, 0, n * 4); cudaMemset(b, 0, n * 4); cudaMemset(o, 0, 4);
  launch_dot(a, b, o, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
