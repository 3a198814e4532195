// RUN: %check_cudagraph_tidy %s cudagraph-barrier-divergence %t -- -- -I%cuda_path/include/cccl
//
// Grid barriers (cooperative_groups::grid_group::sync, this_grid().sync(),
// cg::sync(grid)) through CUDA's own cooperative_groups.h, which needs CCCL's
// include directory. Every thread of every block must reach one: a test on
// blockIdx that sends blocks different ways around it hangs the grid. A test
// on threadIdx is judged as at a block barrier: threads that skip the grid
// barrier and then exit are not divergence by default (such grids complete
// on an H200 and synccheck is silent; AlignedBarriers reports them, unit
// test GridBarrierSkippedByExitingThreads). A block barrier under a test on
// blockIdx alone is fine (uniform in the block). Every positive case has a
// clean twin; docs/validation.md has every kernel's run on the GPU.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 256

// 1. Only the first block waits at the grid barrier.
__global__ void firstBlockGridSync(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  if (blockIdx.x == 0)
    grid.sync();
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: grid barrier divergence: blocks on one side of the test on blockIdx wait at sync() here and the others skip it; a grid barrier must be reached by every thread of every block, or the grid waits forever [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on blockIdx and sends blocks different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  data[threadIdx.x] += data[N + threadIdx.x];
}
__global__ void everyBlockGridSync(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  grid.sync();
  if (blockIdx.x == 0)
    data[threadIdx.x] += data[N + threadIdx.x];
}

// 2. Clean: the first warp of each block waits; the other threads skip it
//    and exit. As at a block barrier, exited threads do not count: the grid
//    completes on an H200 and synccheck is silent, with thread 0 among the
//    waiters or among the threads that exit.
__global__ void firstWarpGridSync(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  if (threadIdx.x < 32)
    grid.sync();
}
__global__ void laterWarpsGridSync(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  if (threadIdx.x >= 32)
    grid.sync();
}
// A thread that skips the grid barrier and then waits at another barrier is
// divergence, as at a block barrier.
__global__ void firstWarpThenBlockBarrier(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  if (threadIdx.x < 32)
    grid.sync();
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: barrier divergence: thread 0 waits at sync() here but thread 32 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition sends thread 0 and thread 32 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  __syncthreads();
  data[threadIdx.x] += data[N + threadIdx.x];
}
__global__ void firstWarpAfterGridSync(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  grid.sync();
  if (threadIdx.x < 32)
    data[threadIdx.x] += data[N + threadIdx.x];
}

// 3. GPUVerify's block_divergence_grid_group: the even blocks wait at the
//    grid barrier, the odd ones skip it; spelt as the free function and as
//    this_grid().sync().
__global__ void evenBlocksGridSync(int *a) {
  cg::grid_group g = cg::this_grid();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (blockIdx.x % 2 == 0) {
    int temp = a[idx + 2];
    cg::sync(g);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: grid barrier divergence: blocks on one side of the test on blockIdx wait at sync() here and the others skip it; a grid barrier must be reached by every thread of every block, or the grid waits forever [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on blockIdx and sends blocks different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    a[idx] = temp;
  }
}
__global__ void oddBlocksGridSync(int *a) {
  if (blockIdx.x % 2 == 1)
    cg::this_grid().sync();
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: grid barrier divergence: blocks on one side of the test on blockIdx wait at sync() here and the others skip it; a grid barrier must be reached by every thread of every block, or the grid waits forever [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on blockIdx and sends blocks different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  a[threadIdx.x] = 0;
}
// Clean (no verdict): the even blocks meet the first grid barrier, the odd
// ones the second, so every block meets one (it completes on an H200, and
// synccheck is silent). The two tests are not tied together: a second test
// on blockIdx whose arms meet different counts may balance the first.
__global__ void evenThenOddGridSync(int *a) {
  cg::grid_group g = cg::this_grid();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (blockIdx.x % 2 == 0) {
    int temp = a[idx + 2];
    cg::sync(g);
    a[idx] = temp;
  }
  if (blockIdx.x % 2 == 1)
    cg::this_grid().sync();
}
// Clean: the blocks take different arms but meet one grid barrier each (the
// grid barrier counts arrivals, whichever call makes them).
__global__ void evenBlocksBothArms(int *a) {
  cg::grid_group g = cg::this_grid();
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  int temp = a[idx + 2];
  if (blockIdx.x % 2 == 0) {
    cg::sync(g);
    a[idx] = temp;
  } else {
    g.sync();
    a[idx] = -temp;
  }
}

// 4. The first block leaves the kernel: it never arrives at the grid barrier
//    the others wait at.
__global__ void firstBlockLeaves(float *data) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0)
    return;
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  grid.sync();
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: grid barrier divergence: blocks that left the kernel at the test on blockIdx never reach sync() here; a grid barrier must be reached by every thread of every block, or the grid waits forever [cudagraph-barrier-divergence]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on blockIdx; the blocks on one side of it leave the kernel
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  data[threadIdx.x] += data[N + threadIdx.x];
}
// Clean: the first block skips only the work, not the barrier.
__global__ void firstBlockIdles(float *data) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x != 0)
    data[blockIdx.x * N + threadIdx.x] = 1.0f;
  grid.sync();
  data[threadIdx.x] += data[N + threadIdx.x];
}

// Clean: conditions every block evaluates alike (kernel parameters, loops
// over them), and a block barrier under a test on blockIdx.
__global__ void uniformGridConditions(float *data, int rounds) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float s[N];
  if (rounds > 1)
    grid.sync();
  for (int r = 0; r < rounds; ++r) {
    data[blockIdx.x * N + threadIdx.x] += 1.0f;
    grid.sync();
  }
  s[threadIdx.x] = data[blockIdx.x * N + threadIdx.x];
  if (blockIdx.x == 0)
    __syncthreads();
  data[threadIdx.x] = s[N - 1 - threadIdx.x];
}

// Clean (no verdict): whether blocks fall on both sides of a test against a
// problem size depends on the grid the host launches (one sized to the
// problem keeps every block on one side); a test on the global index the
// interpreter cannot decide may hold in every thread.
__global__ void problemSizeGuards(float *data, int nblocks, int n) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x >= nblocks)
    return;
  data[blockIdx.x * N + threadIdx.x] = 1.0f;
  grid.sync();
  if (blockIdx.x * N + threadIdx.x < n)
    grid.sync();
}

// Without a launch shape: a test on blockIdx alone splits the blocks of
// every grid of two or more.
__global__ void unlaunchedFirstBlock(float *data) {
  if (blockIdx.x == 0)
    cg::this_grid().sync();
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: grid barrier divergence: blocks on one side of the test on blockIdx wait at sync() here and the others skip it; a grid barrier must be reached by every thread of every block, or the grid waits forever [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on blockIdx and sends blocks different ways
    // CHECK-NOTES: :[[@LINE-5]]:17: note: with any block of two or more warps (nothing on these paths depends on the block shape); no launch of 'unlaunchedFirstBlock' with a constant block size is visible in this file
  data[threadIdx.x] = 0.0f;
}

void launchAll(float *d, int *a, int rounds, int n) {
  void *args[] = {&d};
  cudaLaunchCooperativeKernel((void *)firstBlockGridSync, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)everyBlockGridSync, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)firstWarpGridSync, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)laterWarpsGridSync, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)firstWarpThenBlockBarrier, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)firstWarpAfterGridSync, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)firstBlockLeaves, dim3(4), dim3(N), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)firstBlockIdles, dim3(4), dim3(N), args, 0, 0);
  void *argsA[] = {&a};
  cudaLaunchCooperativeKernel((void *)evenBlocksGridSync, dim3(4), dim3(N), argsA, 0, 0);
  cudaLaunchCooperativeKernel((void *)oddBlocksGridSync, dim3(4), dim3(N), argsA, 0, 0);
  cudaLaunchCooperativeKernel((void *)evenThenOddGridSync, dim3(4), dim3(N), argsA, 0, 0);
  cudaLaunchCooperativeKernel((void *)evenBlocksBothArms, dim3(4), dim3(N), argsA, 0, 0);
  void *argsR[] = {&d, &rounds};
  cudaLaunchCooperativeKernel((void *)uniformGridConditions, dim3(4), dim3(N), argsR, 0, 0);
  void *argsP[] = {&d, &rounds, &n};
  cudaLaunchCooperativeKernel((void *)problemSizeGuards, dim3(4), dim3(N), argsP, 0, 0);
}
