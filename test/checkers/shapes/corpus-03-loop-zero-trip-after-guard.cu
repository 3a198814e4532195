// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/03-loop-zero-trip-after-guard.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a counted loop that an earlier `if (n <= 0) return;` makes run at least once,
// and that releases a resource acquired before it. The loop counter enters the header
// widened to [0, max], so the zero-trip exit is taken and the resource "leaks" there.
// Clean: the buffer is released in the first pass (n >= 1); the analyzer reports a leak (FP).
// Buggy twin (-DBUGGY): without the guard n may be 0 and the buffer really leaks; must report.
#include <cuda_runtime.h>

__global__ void accumulate(float* acc, const float* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += src[i];
}

void passes(float* d_acc, const float* h_src, int n, int rounds, cudaStream_t s) {
#ifndef BUGGY
  if (rounds <= 0) return;
#endif
  float* d_src = nullptr;
  if (cudaMalloc(&d_src, n * sizeof(float)) != cudaSuccess) return;
  cudaMemcpyAsync(d_src, h_src, n * sizeof(float), cudaMemcpyHostToDevice, s);
  bool uploaded = true;
  for (int r = 0; r < rounds; ++r) {
    if (uploaded) {  // the source is only needed in the first round
      accumulate<<<(n + 255) / 256, 256, 0, s>>>(d_acc, d_src, n);
      cudaFreeAsync(d_src, s);
      uploaded = false;
    }
    accumulate<<<(n + 255) / 256, 256, 0, s>>>(d_acc, d_acc, n);
  }
}
