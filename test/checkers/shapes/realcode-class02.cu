// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class02.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 2: a helper that replaces a heap member is summarised as a release only
// FP: a helper replaces a heap member of a by-reference struct (allocate the new array, copy,
// free the old one, store the new one); the caller's later destroy is reported as a second
// release of the old array (warp bvh.cu:702/711, bvh_cubql.cu:537/550).
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
struct Tree { float *nodes = nullptr; int n = 0; };

void tree_destroy(Tree &t) { free(t.nodes); t.nodes = nullptr; }
static void tree_reorder(Tree &t) {
  float *r = (float *)malloc(t.n * sizeof(float));
  for (int i = 0; i < t.n; ++i) r[i] = t.nodes[t.n - 1 - i];
  free(t.nodes);
  t.nodes = r;                                       // the member now holds the new array
}
void tree_upload(Tree &host, float **dev) {
  tree_reorder(host);
  cudaMalloc(dev, host.n * sizeof(float));
  cudaMemcpy(*dev, host.nodes, host.n * sizeof(float), cudaMemcpyHostToDevice);
  tree_destroy(host);                                // reported: released again
}
