// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN: count-down-cleanup-loop.cu:64:{{.*}} warning: device memory 'buf' created by 'cudaMalloc' is not released on every path
// CLEAN-NOT: warning:
// BUGGY-DAG: count-down-cleanup-loop.cu:31:{{.*}} warning: pinned host memory 'ref' created by 'cudaMallocHost' is not released on every path
// BUGGY-DAG: count-down-cleanup-loop.cu:48:{{.*}} warning: device memory 'buf' created by 'cudaMalloc' is not released on every path
// BUGGY-DAG: count-down-cleanup-loop.cu:64:{{.*}} warning: device memory 'buf' created by 'cudaMalloc' is not released on every path
// BUGGY-NOT: warning:
// Reduction of a false alarm on real code (issue 35, class 3: multi-gpu-programming-models
// single_threaded_copy/jacobi.cu, the host buffers of device 0).
// FP: a buffer allocated under `if (0 == dev)` in a loop counting up over the devices is
// freed under the same test in a clean-up loop counting down from `devices - 1` to 0. The
// witness search skipped whole runs of a loop at once and could jump the counter past 0,
// so "never freed" looked feasible. A unit-step counter may not be skipped past a value the
// loop compares it with (lib/Values/PathFormulaLoops.cpp).
// Clean: down() and up() free on exactly one iteration; step2() steps by 2 and never meets
// 5, so its leak is real and stays reported in both builds.
// Buggy twin (-DBUGGY): each loop stops one iteration short of the freeing one.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CK(c) { cudaError_t s = c; if (s != cudaSuccess) { fprintf(stderr, "%d\n", (int)s); exit(s); } }

int down() {
  float *ref;
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  for (int d = 0; d < n; ++d) {
    CK(cudaSetDevice(d));
    if (0 == d) { CK(cudaMallocHost(&ref, 1024)); }
  }
#ifdef BUGGY
  for (int d = n - 1; d > 0; --d) {
#else
  for (int d = n - 1; d >= 0; --d) {
#endif
    if (0 == d) { CK(cudaFreeHost(ref)); }
  }
  return 0;
}

int up() {
  float *buf;
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 1) return 1;
  CK(cudaMalloc(&buf, 64));
#ifdef BUGGY
  for (int d = 0; d < n - 1; ++d) {
#else
  for (int d = 0; d < n; ++d) {
#endif
    CK(cudaSetDevice(d));
    if (d == n - 1) { CK(cudaFree(buf)); }
  }
  return 0;
}

int step2() {
  float *buf;
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  CK(cudaMalloc(&buf, 64));
  for (int d = 0; d < n; d += 2) {
    if (d == 5) { CK(cudaFree(buf)); }
  }
  return 0;
}
