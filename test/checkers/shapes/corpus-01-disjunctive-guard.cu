// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/01-disjunctive-guard.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a resource acquired under `if (a || b)` and released under the same `if (a || b)`.
// Clean: released exactly when acquired; the analyzer reports a leak (FP).
// Buggy twin (-DBUGGY): released only under `if (a)`, leaks when b && !a; must report.
#include <cuda_runtime.h>
#include <cstdio>

struct ReportOpts {
  bool print_sum;
  bool dump_first;
};

int summarize(const ReportOpts& r, const float* d_vals, int n) {
  float* h_vals = nullptr;
  if (r.print_sum || r.dump_first) {
    if (cudaMallocHost(&h_vals, n * sizeof(float)) != cudaSuccess) return -1;
    cudaMemcpy(h_vals, d_vals, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  if (r.print_sum) {
    float s = 0.f;
    for (int i = 0; i < n; ++i) s += h_vals[i];
    printf("sum %f\n", s);
  }
  if (r.dump_first) printf("first %f\n", h_vals[0]);
#ifndef BUGGY
  if (r.print_sum || r.dump_first) cudaFreeHost(h_vals);
#else
  if (r.print_sum) cudaFreeHost(h_vals);
#endif
  return 0;
}
