// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: device memory 'a' created by 'cudaMalloc' is not released on every path{{.*}} [cudagraph-handle-leak]
// BUGGY: note: 'a' is leaked when the exception thrown here leaves the function
// Reduction of a false alarm on real code (issue 35: 370 of CUDALibrarySamples' cuBLAS,
// cuSOLVER and cuFFT samples, whose CHECK macros throw from main).
// FP: a throw that leaves `main` reaches no handler: std::terminate ends the program,
// as exit() does, and nothing is leaked that a caller could have released. It was
// reported as a leak of every buffer allocated before the failing check.
// Clean: main allocates, checks every call with a throwing macro, frees; silent.
// Buggy twin (-DBUGGY): the same code in a function that a caller can call inside a
// try: a failing check there leaks `a` (reported).
#include <cuda_runtime.h>
#include <stdexcept>

#define CHECK(e)                                                                   \
  do {                                                                             \
    if ((e) != cudaSuccess)                                                        \
      throw std::runtime_error("cuda error");                                      \
  } while (0)

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
#ifndef BUGGY
  return 0;
#endif
}
