// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class10.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 10: `cudaMallocAsync(ptr, size, pool, stream)` read as the 3-argument form
// FP: the C++ overload cudaMallocAsync(void**, size_t, cudaMemPool_t, cudaStream_t) from
// cuda_runtime.h (it forwards to cudaMallocFromPoolAsync) is read as the 3-argument
// cudaMallocAsync(ptr, size, stream): the pool is taken for the allocating stream and the
// same-stream use is reported as unordered (nccl enqueue.cc:1342).
#include <cuda_runtime.h>
void upload(cudaMemPool_t pool, cudaStream_t s, const void *h, size_t n) {
  void *d = nullptr;
  if (cudaMallocAsync(&d, n, pool, s) != cudaSuccess) return;
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);   // reported: allocation "on stream 'pool'"
  cudaFreeAsync(d, s);
}
