// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
// Reduction corpus/30-tile-tail-min-index.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: an index clamped to the tile tail, `valid = min(n - blockIdx.x * T, T)`, used as
// `s[valid]`. Every full (interior) tile has valid == T, so the read is out of bounds for every
// large enough n, as a `y < h` guard is definite for interior blocks; the analyzer counts it as
// reached "only for some value of a kernel parameter": possible, hidden by default.
// Clean: the tile's last key is s[valid - 1]; silent.
// Buggy twin (-DBUGGY): s[valid]; reported: min(x, K) reaches K when x is a problem size less
//   a global coordinate (the interior-block rule, InterpreterIntrinsics.cpp).
#include <cuda_runtime.h>
#define T 256
__global__ void last_keys(const int* keys, int* tile_last, int n) {
  __shared__ int s[T];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * T;
  const int valid = min(n - base, T);
  if (tid < valid) s[tid] = keys[base + tid];
  __syncthreads();
#ifndef BUGGY
  if (tid == 0) tile_last[blockIdx.x] = s[valid - 1];
#else
  if (tid == 0) tile_last[blockIdx.x] = s[valid];
#endif
}
void run(const int* keys, int* last, int n, cudaStream_t st) {
  last_keys<<<(n + T - 1) / T, T, 0, st>>>(keys, last, n);
}
