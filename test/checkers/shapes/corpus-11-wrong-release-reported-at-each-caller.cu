// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-mismatched-dealloc]
// Reduction corpus/11-wrong-release-reported-at-each-caller.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a free-function release helper of a context struct uses the wrong family for one
// member. The analyzer reports the wrong release inside the helper (right) and again at every
// call of the helper whose summary carries it (init's error path, the owner's cleanup):
// one defect, three findings (2 duplicate FPs under "one diagnosis per defect").
// Clean: the helper uses cudaFreeHost; silent.
// Buggy twin (-DBUGGY): free() on the pinned member; 1 report expected, 3 given.
#include <cuda_runtime.h>
#include <stdlib.h>
typedef struct { float* h_stage; float* d_buf; } stager;

void stager_free(stager* st) {
#ifndef BUGGY
  cudaFreeHost(st->h_stage);
#else
  free(st->h_stage);
#endif
  cudaFree(st->d_buf);
}
int stager_init(stager* st, size_t n) {
  st->h_stage = NULL;
  st->d_buf = NULL;
  if (cudaMallocHost((void**)&st->h_stage, n) != cudaSuccess) return -1;
  if (cudaMalloc((void**)&st->d_buf, n) != cudaSuccess) goto fail;
  return 0;
fail:
  stager_free(st);
  return -1;
}
int upload_once(const void* src, size_t n) {
  stager st;
  if (stager_init(&st, n) != 0) return -1;
  cudaMemcpy(st.d_buf, src, n, cudaMemcpyHostToDevice);
  stager_free(&st);
  return 0;
}
