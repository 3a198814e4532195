// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: factory-also-stores-views.cu:[[@LINE+45]]:3: warning: 'm.weights' is released again by 'model_free' (undefined behaviour) [cudagraph-use-after-dealloc]
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
// Clean: free, re-build, free. Buggy twin (-DBUGGY): free twice, no re-build between.
#include <cuda_runtime.h>
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
