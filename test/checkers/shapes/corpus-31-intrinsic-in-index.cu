// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: __shared__ array 's' is indexed out of bounds: the index reaches 8191 but the array has 4096 elements [cudagraph-shared-index-overflow]
// Reduction corpus/31-intrinsic-in-index.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: CUDA integer intrinsics (__umul24, __mul24, __umulhi, __popc, __brev, __funnelshift*)
// are opaque in index arithmetic (system-header functions are not interpreted), so an index
// built with one has no range and gets no verdict.
// Clean: 64 bins x 128 threads of byte counters fit the array; silent.
// Buggy twin (-DBUGGY): the array still holds 32 bins; bins 32..63 overflow; reported, as the
//   same index written `((w >> k) & 63u) * THREADS` is (InterpreterIntrinsics.cpp models
//   __umul24 as a product, __popc/__ffs/__clz, __umulhi and shuffles by their ranges).
#include <cuda_runtime.h>
#define THREADS 128
#ifndef BUGGY
#define SMEM_BINS 64
#else
#define SMEM_BINS 32
#endif
__global__ void hist64(unsigned* partial, const unsigned* data, int n_words) {
  __shared__ unsigned char s[THREADS * SMEM_BINS];
  const unsigned tid = threadIdx.x;
  for (int i = tid; i < THREADS * SMEM_BINS; i += THREADS) s[i] = 0;
  __syncthreads();
  for (int pos = blockIdx.x * THREADS + tid; pos < n_words; pos += THREADS * gridDim.x) {
    const unsigned w = data[pos];
    for (int k = 2; k < 32; k += 8) s[tid + __umul24((w >> k) & 63u, THREADS)]++;
  }
  __syncthreads();
  if (tid == 0) partial[blockIdx.x] = s[0];
}
void run(unsigned* partial, const unsigned* data, int n_words, int blocks, cudaStream_t st) {
  hist64<<<blocks, THREADS, 0, st>>>(partial, data, n_words);
}
