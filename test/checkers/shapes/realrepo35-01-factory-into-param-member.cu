// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: 'm.weights' is released again by 'model_free' {{.*}} [cudagraph-use-after-dealloc]
// BUGGY: warning: device memory 'other.weights' created by 'model_alloc' is not released on every path{{.*}} [cudagraph-handle-leak]
// Reduction of a false alarm on real code (issue 35: llm.c test_gpt2.cu, a model freed,
// rebuilt from a checkpoint and freed again).
// FP: a helper stores what a factory helper returns into a member of its pointer
// parameter (`m->weights = alloc_block(n)`). Its summary acquired nothing (only a place
// bound to a live resource was published, never a factory's result), so the caller's
// second `model_free(&m)` after re-allocating looked like a release of freed memory.
// Clean: free, re-allocate through the helper, free again; silent.
// Buggy twin (-DBUGGY): the second free comes without the re-allocation and the free
// helper does not clear the member (released again), and a second model's weights are
// never freed (leak): both reported. (A helper that clears `*p` makes the second free
// a cudaFree(nullptr), no bug: realrepo35-07.)
#include <cuda_runtime.h>
#include <cstdlib>

struct Model { void *weights; size_t n; };

void *alloc_block(size_t n) {
  void *p;
  if (cudaMalloc(&p, n) != cudaSuccess)
    exit(1);
  return p;
}

void model_alloc(Model *m) { m->weights = alloc_block(m->n); }

// Frees through the address of the member and clears it, as the project's
// checking wrapper does.
void free_and_clear(void **p) {
  if (cudaFree(*p) != cudaSuccess)
    exit(1);
#ifndef BUGGY
  *p = nullptr;
#endif
}

void model_free(Model *m) { free_and_clear(&m->weights); }

void model_reload(Model *m, size_t n) {
  m->n = n;
  model_alloc(m);
}

int main() {
  Model m = {};
  m.n = 64;
  model_alloc(&m);
  model_free(&m);
#ifndef BUGGY
  model_reload(&m, 128);
#endif
  model_free(&m);
#ifdef BUGGY
  Model other = {};
  other.n = 32;
  model_alloc(&other);
#endif
  return 0;
}
