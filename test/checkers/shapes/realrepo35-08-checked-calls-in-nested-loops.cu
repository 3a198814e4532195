// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: checked-calls-in-nested-loops.cu:32:10: warning: pinned host memory 'ref' created by 'cudaMallocHost' is not released on every path
// BUGGY-NOT: warning:
// Reduction of a false alarm on real code (issue 35, class 3: multi-gpu-programming-models
// single_threaded_copy/jacobi.cu, between the allocation for device 0 and its release).
// FP: between the loop that allocates for device 0 and the clean-up loop that frees it,
// an iteration loop runs a loop over the devices whose body checks each call
// (`CK(...)` declares a status local and exits on failure) and picks a neighbour with
// `?:`. The witness search skips an inner loop's iterations at its head; reached again
// around the outer loop, the skip there covered only the outer iteration's writes, the
// status local the next inner iteration wrote was not among them, so the search entered
// the loop again until its unroll bound and kept the finding unconfirmed. A local the
// body declares is dead at the head and is no longer counted as written there, and a
// head may skip again whenever what the path wrote grows past every earlier skip there
// (lib/Lifetime/Reports/Witness.cpp, lib/Values/PathFormulaLoops.cpp).
// Clean: the clean-up loop passes device 0. Buggy twin (-DBUGGY): it stops at 1.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CK(call) { cudaError_t s = call; if (cudaSuccess != s) { fprintf(stderr, "%d\n", (int)s); exit(s); } }

int sweep(int iter_max, bool check_norm) {
  float *ref;
  int n = 0;
  cudaStream_t st[8];
  CK(cudaGetDeviceCount(&n));
  for (int d = 0; d < n; ++d) {
    if (0 == d)
      CK(cudaMallocHost(&ref, 64));
    CK(cudaStreamCreate(st + d));
  }
  for (int iter = 0; iter < iter_max; ++iter) {
    for (int d = 0; d < n; ++d) {
      CK(cudaSetDevice(d));
      const int top = d > 0 ? d - 1 : (n - 1);
      if (check_norm)
        CK(cudaStreamSynchronize(st[top]));
    }
  }
#ifndef BUGGY
  for (int d = n - 1; d >= 0; --d) {
#else
  for (int d = n - 1; d > 0; --d) {
#endif
    CK(cudaStreamDestroy(st[d]));
    if (0 == d)
      CK(cudaFreeHost(ref));
  }
  return 0;
}
