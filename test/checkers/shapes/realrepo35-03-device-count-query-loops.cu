// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: pinned host memory 'ref' created by 'cudaMallocHost' is not released on every path{{.*}} [cudagraph-handle-leak]
// Reduction of a false alarm on real code (issue 35: multi-gpu-programming-models
// single_threaded_copy/jacobi.cu, the host buffers of device 0).
// FP: a buffer allocated under `if (0 == dev)` in one loop over the devices is freed under
// the same test in a second loop over them. The device count came from
// cudaGetDeviceCount(&n): the address made `n` an escaped local to the witness search,
// so a later call could have changed it and the path that skips the second loop's first
// iteration looked feasible. A query's integer out-argument is written during the call
// and kept by no one (the model lists the query; lib/Values/PathFormula.cpp).
// Clean: allocate in iteration 0 of the first loop, free in iteration 0 of the second.
// Buggy twin (-DBUGGY): the second loop frees under `1 == dev`, which one device never
// reaches: reported.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CK(call)                                                                   \
  {                                                                                \
    cudaError_t st = call;                                                         \
    if (st != cudaSuccess) {                                                       \
      fprintf(stderr, "%s\n", cudaGetErrorString(st));                             \
      exit(st);                                                                    \
    }                                                                              \
  }

#ifdef BUGGY
#define FREEING_DEVICE 1
#else
#define FREEING_DEVICE 0
#endif

int main() {
  float *ref;
  int devices = 0;
  CK(cudaGetDeviceCount(&devices));
  for (int dev = 0; dev < devices; ++dev) {
    CK(cudaSetDevice(dev));
    if (0 == dev) {
      CK(cudaMallocHost(&ref, 1024 * sizeof(float)));
    }
  }
  for (int dev = 0; dev < devices; ++dev) {
    CK(cudaSetDevice(dev));
    if (FREEING_DEVICE == dev) {
      CK(cudaFreeHost(ref));
    }
  }
  return 0;
}
