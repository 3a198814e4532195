// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: numbers-read-from-buffer.cu:25:{{.*}} warning: pinned host memory 'h' created by 'cudaMallocHost' is not released on every path
// BUGGY-NOT: warning:
// Found on real code (issue 35, with realrepo35-10): a result check that reads a pinned
// buffer element by element through functions the analysis does not know
// (`std::fabs(h[i] - ref[i])`, a scoring helper declared in another file). Reading a
// number out of the memory a pointer holds was taken for handing the pointer on: the
// buffer counted as escaped from the first read, so a buffer never freed was not
// reported, and in the witness search the loop could not be crossed as a region. A
// number read from the memory (the element's type is arithmetic) hands on nothing; an
// element of an array of handles still does (Transfer/Assignments.cpp escapeValueRefs).
// Buggy twin (-DBUGGY): the buffer is never freed.
#include <cuda_runtime.h>
#include <cmath>

double score(float x);     // defined in another file
void keep(float *buffer);  // may keep the pointer

float check(const float *ref, int n) {
  if (n <= 0)
    return 0.f;
  float *h = nullptr;
  if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess)
    return -1.f;
  float worst = 0.f;
  for (int i = 0; i < n; ++i) {
    float d = std::fabs(h[i] - ref[i]);
    if (d > worst)
      worst = d + static_cast<float>(score(h[i]));
  }
#ifndef BUGGY
  cudaFreeHost(h);
#endif
  return worst;
}

// Handing the pointer itself on is still an escape: no report either way.
void handed_on(int n) {
  float *h = nullptr;
  cudaMallocHost(&h, n * sizeof(float));
  keep(h);
}
