// Reduction of 14_cg_dot.cu (BUGGY): FN of cudagraph-shared-race.
// Indices and conditions written with cooperative_groups' tile.thread_rank() /
// tile.meta_group_rank() (instead of threadIdx.x & 31 / threadIdx.x >> 5) are not
// decided per thread, so the race below (lane 0 of warp w writes s[w], warp 0 reads it
// with only tile.sync() between; racecheck: 14_cg_dot.cu:17 vs :24) is not reported.
// The same kernel with threadIdx arithmetic (control(), below) is reported.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void with_cg(float* out) {
  __shared__ float s[8];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 0) s[tile.meta_group_rank()] = 1.f;
  tile.sync();
  if (tile.meta_group_rank() == 0 && tile.thread_rank() < 8) out[tile.thread_rank()] = s[tile.thread_rank()];
}

__global__ void control(float* out) {  // reported: thread 32 writes s[1], thread 1 reads it
  __shared__ float s[8];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) s[warp] = 1.f;
  tile.sync();
  if (warp == 0 && lane < 8) out[lane] = s[lane];
}

void launch(float* out) {
  with_cg<<<1, 256, 0, 0>>>(out);
  control<<<1, 256, 0, 0>>>(out);
}
