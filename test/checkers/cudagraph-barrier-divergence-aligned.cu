// RUN: %check_cudagraph_tidy %s cudagraph-barrier-divergence %t
// RUN: %check_cudagraph_tidy %s cudagraph-barrier-divergence %t -check-suffixes=ALIGNED -config="{CheckOptions: {cudagraph-barrier-divergence.AlignedBarriers: true}}"
//
// AlignedBarriers: a barrier that some threads skip and then leave the kernel.
// By default it is not divergence (sm_70+ counts only non-exited threads, and
// synccheck is silent); with the option it is, as PTX's .aligned rule, GPUs
// before sm_70 and GPUVerify have it. Divergence where the skipping thread
// waits later is reported either way.
#include <cuda_runtime.h>

#define N 128

// The odd threads skip the barrier and exit (GPUVerify's
// divergence_thread_block, with a signed global index).
__global__ void oddThreadsExit(int *a) {
  __shared__ int s[N];
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  s[threadIdx.x] = a[idx];
  if (idx % 2 == 0) {
    int next = s[(threadIdx.x + 2) % N];
    __syncthreads();
    // CHECK-NOTES-ALIGNED: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 1 of the same block skips it and exits; under PTX's .aligned rule every thread of the block must reach it [cudagraph-barrier-divergence]
    // CHECK-NOTES-ALIGNED: :[[@LINE-4]]:7: note: this condition sends thread 0 and thread 1 different ways
    // CHECK-NOTES-ALIGNED: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch
    a[idx] = next;
  }
}
// Fixed: the barrier outside the condition.
__global__ void oddThreadsExitFixed(int *a) {
  __shared__ int s[N];
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  s[threadIdx.x] = a[idx];
  int next = s[(threadIdx.x + 2) % N];
  __syncthreads();
  if (idx % 2 == 0)
    a[idx] = next;
}

// The skipping threads wait at the barrier after the if: divergence with and
// without the option (a signed global index whose parity is the thread's).
__global__ void oddThreadsWaitLater(int *a) {
  __shared__ int s[N];
  int idx = blockDim.x * blockIdx.x + threadIdx.x;
  s[threadIdx.x] = a[idx];
  if (idx % 2 == 0)
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 1 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition sends thread 0 and thread 1 different ways
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch
    // CHECK-NOTES-ALIGNED: :[[@LINE-4]]:5: warning: barrier divergence: thread 0 waits at __syncthreads() here but thread 1 of the same block skips it and waits at a later barrier; a block barrier must be reached by every live thread [cudagraph-barrier-divergence]
    // CHECK-NOTES-ALIGNED: :[[@LINE-6]]:7: note: this condition sends thread 0 and thread 1 different ways
    // CHECK-NOTES-ALIGNED: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch
  __syncthreads();
  a[idx] = s[N - 1 - threadIdx.x];
}

// Clean with the option too: an early return before any barrier is not
// conditional barrier code.
__global__ void earlyReturn(const int *in, int *out, int n) {
  __shared__ int s[N];
  int i = blockIdx.x * N + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[N - 1 - threadIdx.x];
}

void launchAll(int *iout, const int *idx, int n) {
  oddThreadsExit<<<4, N>>>(iout);
  oddThreadsExitFixed<<<4, N>>>(iout);
  oddThreadsWaitLater<<<4, N>>>(iout);
  earlyReturn<<<4, N>>>(idx, iout, n);
}
