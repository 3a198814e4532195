// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/18-readonly-helper-escapes-struct.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a same-file helper that only reads a context struct through `&ctx` (the summary says
// "uses") still makes every member of ctx escape at the caller, so a later re-allocation over
// a live member (here by another helper) is no longer seen at all.
// Clean: grow() frees the old pool before re-allocating; silent.
// Buggy twin (-DBUGGY): grow() re-allocates `a` over the live pool; must report, silent (FN).
// Without the pools_clear(&p, 0) call the buggy twin is reported (at the grow call).
#include <cuda_runtime.h>
#include <string.h>
typedef struct { void* a; void* b; size_t cap; } pools_t;
int pools_init(pools_t* p, size_t n) {
  memset(p, 0, sizeof(*p));
  if (cudaMalloc(&p->a, n) != cudaSuccess) return -1;
  if (cudaMalloc(&p->b, n) != cudaSuccess) return -1;
  p->cap = n;
  return 0;
}
void pools_free(pools_t* p) { cudaFree(p->a); cudaFree(p->b); memset(p, 0, sizeof(*p)); }
int pools_grow(pools_t* p, size_t n) {
  if (n <= p->cap) return 0;
#ifndef BUGGY
  cudaFree(p->a);
#endif
  cudaFree(p->b);
  if (cudaMalloc(&p->a, n) != cudaSuccess) return -1;
  if (cudaMalloc(&p->b, n) != cudaSuccess) return -1;
  p->cap = n;
  return 0;
}
int pools_clear(pools_t* p, cudaStream_t s) {
  return cudaMemsetAsync(p->a, 0, p->cap, s) == cudaSuccess ? 0 : -1;
}
int main(void) {
  pools_t p;
  if (pools_init(&p, 1 << 20) != 0) { pools_free(&p); return 1; }
  int rc = pools_clear(&p, 0);
  if (rc == 0) rc = pools_grow(&p, 1 << 22);
  pools_free(&p);
  return rc;
}
