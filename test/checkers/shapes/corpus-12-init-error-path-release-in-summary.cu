// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// The -DBUGGY twin (a double free of malloc memory) stays silent by design: host
// memory is followed only for mismatches with CUDA families; its leaks and double
// frees are clang-analyzer's unix.Malloc (issue 35 item 3).
// Reduction corpus/12-init-error-path-release-in-summary.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: an init helper fills a context member by assignment from a returning allocator
// (`c->tab = malloc(..)`) and, on a later failure, calls the context's free helper. Only
// out-parameter acquisitions (`cudaMalloc(&c->d, ..)`) mark a member as "acquired here", so
// the init's summary says it releases the caller's c->tab, and the caller's own cleanup after
// a successful init is taken for a second release.
// Clean: init/use/free; the analyzer reports a double release (FP).
// Buggy twin (-DBUGGY): the caller frees c.tab itself before ctx_free; must report.
#include <cuda_runtime.h>
#include <stdlib.h>
typedef struct { cudaStream_t s; float* d; int* tab; } ctx;

void ctx_free(ctx* c) {
  free(c->tab);
  if (c->d != NULL) cudaFree(c->d);
  if (c->s != NULL) cudaStreamDestroy(c->s);
}
int ctx_init(ctx* c, size_t n) {
  c->s = NULL; c->d = NULL; c->tab = NULL;
  if (cudaStreamCreate(&c->s) != cudaSuccess) goto fail;
  c->tab = (int*)malloc(n * sizeof(int));
  if (c->tab == NULL) goto fail;
  if (cudaMalloc((void**)&c->d, n * sizeof(float)) != cudaSuccess) goto fail;
  return 0;
fail:
  ctx_free(c);
  return -1;
}
int run(size_t n) {
  ctx c;
  if (ctx_init(&c, n) != 0) return -1;
  c.tab[0] = 1;
  cudaMemsetAsync(c.d, 0, n * sizeof(float), c.s);
#ifdef BUGGY
  free(c.tab);
#endif
  ctx_free(&c);
  return 0;
}
