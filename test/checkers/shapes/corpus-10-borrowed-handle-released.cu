// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-mismatched-dealloc]
// Reduction corpus/10-borrowed-handle-released.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: handles a getter lends (cudaDeviceGetDefaultMemPool, cudaDeviceGetMemPool,
// cudaGraphChildGraphNodeGetGraph: "owned": false in the model) are not tracked at all,
// so releasing one (a device's default pool cannot be destroyed; a child node's graph belongs
// to the node) is not reported.
// Clean: only the pool this function created is destroyed; silent.
// Buggy twin (-DBUGGY): the default pool is destroyed too; must report, silent (FN).
#include <cuda_runtime.h>

int trimmed_alloc(int dev, size_t bytes, bool private_pool, cudaStream_t s) {
  cudaMemPool_t pool = nullptr;
  if (private_pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) return -1;
  } else if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess) {
    return -1;
  }
  void* p = nullptr;
  if (cudaMallocFromPoolAsync(&p, bytes, pool, s) == cudaSuccess) cudaFreeAsync(p, s);
  cudaStreamSynchronize(s);
#ifndef BUGGY
  if (private_pool) cudaMemPoolDestroy(pool);
#else
  cudaMemPoolDestroy(pool);
#endif
  return 0;
}
