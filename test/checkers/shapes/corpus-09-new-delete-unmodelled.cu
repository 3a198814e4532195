// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// The -DBUGGY twin is not reported yet: a known false negative (issue 36).
// Reduction corpus/09-new-delete-unmodelled.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: C++ new/new[]/delete/delete[] are not in the allocation model (only malloc/free),
// so a CUDA release of `new[]` memory, or `delete[]` of CUDA memory, is not a family mismatch.
// Clean: each buffer released by its own family; silent.
// Buggy twin (-DBUGGY): the host copy from new[] is released with cudaFree (fails with
//   cudaErrorInvalidValue and leaks it); must report, the analyzer is silent (FN).
#include <cuda_runtime.h>
#include <cstdio>

void print_counts(const unsigned* d_counts, int bins) {
  unsigned* h_counts = new unsigned[bins];
  cudaMemcpy(h_counts, d_counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int b = 0; b < bins; ++b)
    if (h_counts[b] != 0) printf("%d: %u\n", b, h_counts[b]);
#ifndef BUGGY
  delete[] h_counts;
#else
  cudaFree(h_counts);
#endif
}
