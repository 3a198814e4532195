// EXPECT: cudagraph-shared-race line 28
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

// Dot product with cooperative groups: tile reductions, per-warp results in shared
// memory, then the first tile folds them and adds to the global result.
__global__ void dot_cg(const float* __restrict__ a, const float* __restrict__ b,
                       float* __restrict__ out, int n) {
  __shared__ float warp_sums[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += a[i] * b[i];
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
#ifdef BUGGY
  // the first tile reads the slots before the other tiles have written them
#else
  block.sync();
#endif
  if (warp.meta_group_rank() == 0) {
    float s = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.f;  // <bug>
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0) atomicAdd(out, s);
  }
}

int main() {
  const int n = 1 << 15;
  std::vector<float> a(n, 1.f), b(n, 2.f);
  float *da, *db, *dout;
  cudaMalloc(&da, n * 4);
  cudaMalloc(&db, n * 4);
  cudaMalloc(&dout, 4);
  cudaMemset(dout, 0, 4);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  dot_cg<<<16, 256>>>(da, db, dout, n);
  float r = 0.f;
  cudaMemcpy(&r, dout, 4, cudaMemcpyDeviceToHost);
  printf("dot=%f %s\n", r, cudaGetErrorString(cudaGetLastError()));
  cudaFree(da); cudaFree(db); cudaFree(dout);
  return 0;
}
