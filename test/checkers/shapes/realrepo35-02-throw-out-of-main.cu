// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: device memory 'tmp' created by 'cudaMalloc' is not released on every path{{.*}} [cudagraph-handle-leak]
// BUGGY: warning: device memory 'a' created by 'cudaMalloc' is not released on every path{{.*}} [cudagraph-handle-leak]
// BUGGY: note: 'a' is leaked when the exception thrown here leaves the function
// Reduction of a false alarm on real code (issue 35: 370 of CUDALibrarySamples' cuBLAS,
// cuSOLVER and cuFFT samples, whose CHECK macros throw from main).
// FP: a throw that leaves `main` reaches no handler: std::terminate ends the program,
// as exit() does, and nothing is leaked that a caller could have released. It was
// reported as a leak of every buffer allocated before the failing check.
// The same holds for a template of this file that only main calls, outside a try
// (the cuSOLVER samples' residual_check): a caller that could catch must see its
// definition, and no other file does.
// Clean: main allocates, checks every call with a throwing macro, frees; a template
// helper does the same and main calls it; silent.
// Buggy twin (-DBUGGY): the code of main in a function other files can call (in a try):
// a failing check there leaks `a` (reported); and main calls the template helper
// inside a try whose handler carries on, so the helper's leak is reported too.
#include <cuda_runtime.h>
#include <stdexcept>

#define CHECK(e)                                                                   \
  do {                                                                             \
    if ((e) != cudaSuccess)                                                        \
      throw std::runtime_error("cuda error");                                      \
  } while (0)

template <typename T> void check_twice(size_t n) {
  T *tmp, *out;
  CHECK(cudaMalloc(&tmp, n * sizeof(T)));
  CHECK(cudaMalloc(&out, n * sizeof(T)));
  CHECK(cudaMemset(out, 0, n * sizeof(T)));
  CHECK(cudaFree(out));
  CHECK(cudaFree(tmp));
}

#ifdef BUGGY
void run() {
#else
int main() {
#endif
  float *a, *b;
  CHECK(cudaMalloc(&a, 64 * sizeof(float)));
  CHECK(cudaMalloc(&b, 64 * sizeof(float)));
  CHECK(cudaMemset(b, 0, 64 * sizeof(float)));
  CHECK(cudaFree(b));
  CHECK(cudaFree(a));
#ifdef BUGGY
}

int main() {
  try {
    check_twice<double>(64);
  } catch (const std::exception &) {
  }
  run();
  return 0;
}
#else
  check_twice<double>(64);
  return 0;
}
#endif
