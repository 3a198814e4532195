// RUN: %check_cudagraph_tidy %s cudagraph-barrier-divergence %t
//
// Block barriers that not every live thread reaches, barriers at different
// calls, and __syncwarp masks without the caller. Every positive case has a
// clean twin (the fix).
#include <cuda_runtime.h>
// What cooperative_groups.h declares of a block (the real header needs CCCL's
// include directory): thread_block's sync() is a static member.
namespace cooperative_groups {
struct thread_block {
  __device__ static void sync() { __syncthreads(); }
};
__device__ thread_block this_thread_block() { return thread_block(); }
} // namespace cooperative_groups
namespace cg = cooperative_groups;

#define N 256

// 1. A barrier inside a branch only the first warp takes; the other warps
//    wait at the next barrier instead.
__global__ void firstWarpBarrier(float *data) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 32 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition sends thread 0 and thread 32 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  }
  __syncthreads();
  data[t] = s[t];
}
__global__ void firstWarpBarrierFixed(float *data) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncthreads();
  if (t < 32)
    s[t] += s[t + 32];
  __syncthreads();
  data[t] = s[t];
}

// 2. Each arm has its own barrier: different calls, undefined (bar.sync is
//    .aligned), even though every thread meets one.
__global__ void barrierPerArm(float *data) {
  __shared__ float s[N];
  int t = threadIdx.x;
  if (t % 2 == 0) {
    s[t] = data[t];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: misaligned barriers: thread 0 waits at __syncthreads() here while thread 1 waits at the one at line {{[0-9]+}}; every thread must reach the same barrier call [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE+4]]:5: note: thread 1 waits here
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  } else {
    s[t] = -data[t];
    __syncthreads();
  }
  data[t] = s[N - 1 - t];
}
__global__ void barrierAfterArms(float *data) {
  __shared__ float s[N];
  int t = threadIdx.x;
  if (t % 2 == 0)
    s[t] = data[t];
  else
    s[t] = -data[t];
  __syncthreads();
  data[t] = s[N - 1 - t];
}

// 3. A grid-stride style loop whose trip count depends on the thread, with a
//    barrier inside: threads 0-43 run one more iteration than the others.
__global__ void strideLoopBarrier(const float *in, float *out) {
  __shared__ float s[N];
  for (int i = threadIdx.x; i < 300; i += N) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 44 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: this condition sends thread 0 and thread 44 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
    out[i] = s[N - 1 - threadIdx.x];
    __syncthreads();
  }
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] += s[N - 1 - threadIdx.x];
}
__global__ void strideLoopBarrierFixed(const float *in, float *out) {
  __shared__ float s[N];
  for (int base = 0; base < 300; base += N) {
    int i = base + threadIdx.x;
    if (i < 300)
      s[threadIdx.x] = in[i];
    __syncthreads();
    if (i < 300)
      out[i] = s[N - 1 - threadIdx.x];
    __syncthreads();
  }
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] += s[N - 1 - threadIdx.x];
}

// 4. A cooperative-groups block sync taken by one thread only.
__global__ void cgSyncOneThread(float *data) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float total;
  if (threadIdx.x == 0) {
    total = data[0];
    block.sync();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at sync() here but thread 1 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition sends thread 0 and thread 1 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  }
  block.sync();
  data[threadIdx.x] += total;
}
__global__ void cgSyncAll(float *data) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float total;
  if (threadIdx.x == 0)
    total = data[0];
  block.sync();
  data[threadIdx.x] += total;
}

// Clean: the threads that skip the barrier only exit afterwards; exited
// threads no longer count at a barrier (sm_70+), and synccheck is silent.
__global__ void skipThenExit(float *data) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    __syncthreads();
    data[t] = s[t];
  }
}

// 5. A __syncwarp mask that leaves out half of the lanes calling it.
__global__ void halfMask(float *data) {
  __shared__ float s[N];
  s[threadIdx.x] = data[threadIdx.x];
  __syncwarp(0x0000ffff);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __syncwarp mask 0x0000ffff does not name lane 16 (thread 16), which calls it; every caller must set its own bit [cudagraph-barrier-divergence]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  data[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void halfMaskFixed(float *data) {
  __shared__ float s[N];
  s[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    __syncwarp(0x0000ffff);
  else
    __syncwarp(0xffff0000);
  data[threadIdx.x] = s[threadIdx.x ^ 1];
}

// 5b. The same mask as the kernel's first statement: thread 0 runs it clean,
// but the mask's test reads the lane, so no other thread replays thread 0's
// run of it (InterpreterMemo.cpp).
__global__ void halfMaskFirst(float *data) {
  __syncwarp(0x0000ffff);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __syncwarp mask 0x0000ffff does not name lane 16 (thread 16), which calls it; every caller must set its own bit [cudagraph-barrier-divergence]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  __shared__ float s[N];
  s[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = s[threadIdx.x ^ 1];
}

// Clean: threads that return early no longer count at a barrier (sm_70+).
__global__ void earlyExit(const float *in, float *out, int n) {
  __shared__ float s[N];
  int i = blockIdx.x * N + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x];
}

// Clean: conditions every thread of the block evaluates alike.
__global__ void uniformConditions(float *data, int rounds) {
  __shared__ float s[N];
  s[threadIdx.x] = data[threadIdx.x];
  if (rounds > 1)
    __syncthreads();
  if (blockIdx.x == 0)
    __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    s[threadIdx.x] += 1.0f;
    __syncthreads();
  }
  data[threadIdx.x] = s[threadIdx.x];
}

// Clean (no verdict): a barrier behind a thread-dependent test the
// interpreter cannot decide.
__global__ void undecided(float *data, int n) {
  if (threadIdx.x < n)
    __syncthreads();
  data[threadIdx.x] = 0.0f;
}

// Without a launch shape: a test on threadIdx splits every block of two or
// more warps; one on blockDim is judged only with a launch shape.
__global__ void unlaunchedFirstWarp(float *data) {
  if (threadIdx.x < 32)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 32 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition sends thread 0 and thread 32 different ways
    // CHECK-NOTES: :[[@LINE-5]]:17: note: with any block of two or more warps (nothing on these paths depends on the block shape); no launch of 'unlaunchedFirstWarp' with a constant block size is visible in this file
  __syncthreads();
  data[threadIdx.x] = 0.0f;
}
__global__ void unlaunchedHalfBlock(float *data) {
  if (threadIdx.x < blockDim.x / 2)
    __syncthreads();
  __syncthreads();
  data[threadIdx.x] = 0.0f;
}

// 6. A residue of the global index: `(32*b + t) % 2` is `t % 2` whatever the
//    block (GPUVerify's divergence_thread_block), so the barrier under it
//    diverges; a residue of a multiple of the block index alone is uniform.
__global__ void globalIndexParity(float *data) {
  __shared__ float s[N];
  unsigned g = 32 * blockIdx.x + threadIdx.x;
  s[threadIdx.x] = data[g];
  if (g % 2 == 0)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 1 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition sends thread 0 and thread 1 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch
  __syncthreads();
  data[g] = s[N - 1 - threadIdx.x];
}
__global__ void blockParityUniform(float *data) {
  __shared__ float s[N];
  unsigned b = 32 * blockIdx.x;
  s[threadIdx.x] = data[b + threadIdx.x];
  if (b % 2 == 0)
    __syncthreads();
  __syncthreads();
  data[b + threadIdx.x] = s[N - 1 - threadIdx.x];
}

void launchAll(float *d, const float *in, int n) {
  firstWarpBarrier<<<1, N>>>(d);
  firstWarpBarrierFixed<<<1, N>>>(d);
  barrierPerArm<<<1, N>>>(d);
  barrierAfterArms<<<1, N>>>(d);
  strideLoopBarrier<<<1, N>>>(in, d);
  strideLoopBarrierFixed<<<1, N>>>(in, d);
  cgSyncOneThread<<<1, N>>>(d);
  cgSyncAll<<<1, N>>>(d);
  skipThenExit<<<1, N>>>(d);
  halfMask<<<1, N>>>(d);
  halfMaskFixed<<<1, N>>>(d);
  halfMaskFirst<<<1, N>>>(d);
  earlyExit<<<4, N>>>(in, d, n);
  uniformConditions<<<2, N>>>(d, n);
  undecided<<<1, N>>>(d, n);
  globalIndexParity<<<4, N>>>(d);
  blockParityUniform<<<4, N>>>(d);
}
