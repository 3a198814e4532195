// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class01.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 1: a destroy helper that nulls what it frees is called twice
// FP: a destroy helper frees the members of a struct it gets by reference and sets them to
// nullptr; a builder's failure path calls it, and so does its caller: the second call frees
// nullptr (a no-op) but is reported as a double release (nccl ce_coll.cc:1155; warp
// bvh_cubql.cpp:428/472, bvh_cubql.cu:525). Silent when the members are cudaMalloc/cudaFree memory.
#include <cuda_runtime.h>
#include <cstdlib>
struct Tree { float *nodes = nullptr; int *prims = nullptr; };

void tree_destroy(Tree &t) {
  free(t.nodes);
  free(t.prims);
  t.nodes = nullptr;
  t.prims = nullptr;
}
static bool tree_fill(Tree &t, int n) {
  t.nodes = (float *)malloc(n * sizeof(float));
  t.prims = (int *)malloc(n * sizeof(int));
  if (!t.nodes || !t.prims) { tree_destroy(t); return false; }
  return true;
}
bool tree_build(Tree &t, int n) {
  if (!tree_fill(t, n)) {
    tree_destroy(t);                                 // reported: released again
    return false;
  }
  return true;
}
