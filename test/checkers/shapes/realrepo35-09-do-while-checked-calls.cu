// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: do-while-checked-calls.cu:45:{{.*}} warning: pinned host memory 'ref' created by 'cudaMallocHost' is not released on every path
// BUGGY-NOT: warning:
// Reduction of a false alarm on real code (issue 35, class 3, a second member): the
// shape of realrepo35-05, with every call checked by a `do { ... } while (0)` macro.
// FP: the witness search took the body of each `do ... while (0)` for a loop head (the
// loop-back block of a constant-false condition is unreachable, but it is still a
// predecessor), and skipped "iterations" there; a skip inside the clean-up loop's body
// let the count-down counter jump past 0 without the pivot rule of a real loop head, so
// a path that never frees looked feasible and the false alarm was even "confirmed".
// A block entered only from unreachable blocks' back edges is no loop head (Witness.cpp
// isLoopHead); the error arms of the checks (`fprintf`; `exit`) are followed without a
// solver query (endsInSink).
// Clean: pinned() frees on exactly one iteration of the count-down loop.
// Buggy twin (-DBUGGY): the clean-up loop stops one iteration short of the freeing one.
// The same with real loops and branches between the two loops, as in jacobi.cu itself:
// realrepo35-10.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));               \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

#ifdef BUGGY
#define LAST 1
#else
#define LAST 0
#endif

int pinned() {
  float *ref;
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  for (int d = 0; d < n; ++d) {
    CHECK(cudaSetDevice(d));
    if (0 == d) CHECK(cudaMallocHost(&ref, 1024));
  }
  for (int d = n - 1; d >= LAST; --d) {
    CHECK(cudaSetDevice(d));
    if (0 == d) CHECK(cudaFreeHost(ref));
  }
  return 0;
}
