// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY-DAG: factory-also-stores-views.cu:105:3: warning: 'm.weights' is released again by 'model_free' (undefined behaviour) [cudagraph-use-after-dealloc]
// BUGGY-DAG: factory-also-stores-views.cu:94:3: warning: 'n.weights' is released again by 'nested_free' (undefined behaviour) [cudagraph-use-after-dealloc]
// BUGGY-NOT: warning:
// Reduction of a false alarm on real code (issue 35, class 1: karpathy/llm.c test_gpt2.cu,
// `model.params_memory` released again by `gpt2_free`).
// FP: a factory helper cudaMallocs one block, stores views of it through a second
// parameter (`v->a = p`, the parameter tensors of the model) and returns it; the
// caller's helper stores the result in `m->weights`. The caller frees, builds again
// through the helper, frees again. The stores of views made the block escape, so the
// helper published nothing, and the second free looked like a double free of the first
// block. Now a helper's summary says which members of its parameters it writes
// ("writes" in the API model): a call to it forgets what the caller knew of them.
// The project's own shape, nested(): the views go through an array of member addresses,
// the store is one helper further down (build -> alloc_weights -> factory), and the
// free helper frees through `freeCheck(&m->weights)`, which nulls `*ptr` after cudaFree,
// so freeing twice is no double free either.
// Clean: free, re-build, free. Buggy twin (-DBUGGY): main() frees twice with no re-build
// between; nested()'s freeCheck nulls `*ptr` only when asked to, so its second free is one.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct Views {
  float *a;
  float *b;
};
struct Model {
  void *weights;
  size_t n;
  Views v;
};

void *alloc_block(Views *v, size_t n) {
  void *p;
  if (cudaMalloc(&p, n) != cudaSuccess)
    exit(1);
  v->a = (float *)p;
  v->b = (float *)p + 8;
  return p;
}

void model_build(Model *m) { m->weights = alloc_block(&m->v, m->n); }
void model_free(Model *m) { cudaFree(m->weights); }

template <class T> inline void freeCheck(T **ptr, bool null_after) {
  if (cudaFree(*ptr) != cudaSuccess)
    exit(1);
#ifndef BUGGY
  (void)null_after;
  *ptr = nullptr;
#else
  if (null_after)
    *ptr = nullptr;
#endif
}

void *alloc_views(Views *v, size_t n) {
  void *p;
  if (cudaMalloc(&p, n) != cudaSuccess)
    exit(1);
  float **ptrs[] = {&v->a, &v->b};
  char *it = (char *)p;
  for (int i = 0; i < 2; i++) {
    *(ptrs[i]) = (float *)it;
    it += 8 * sizeof(float);
  }
  return p;
}

void nested_alloc_weights(Model *m) { m->weights = alloc_views(&m->v, m->n); }

void nested_build(Model *m, const char *path, bool init) {
  FILE *f = fopen(path, "rb");
  if (!f)
    exit(1);
  nested_alloc_weights(m);
  if (init && fread(m->weights, 1, 4, f) != 4)
    exit(1);
  fclose(f);
}

void nested_free(Model *m, bool null_after) { freeCheck(&m->weights, null_after); }

void nested(bool keep) {
  Model n = {};
  n.n = 64;
  nested_build(&n, "model.bin", true);
  nested_free(&n, keep);
  nested_build(&n, "model.bin", false);
  nested_free(&n, keep);
  nested_free(&n, keep);
}

int main() {
  Model m = {};
  m.n = 64;
  model_build(&m);
  model_free(&m);
#ifndef BUGGY
  model_build(&m);
#endif
  model_free(&m);
  return 0;
}
