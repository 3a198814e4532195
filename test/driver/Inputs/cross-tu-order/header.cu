// Releases twice through release_checked, an inline helper of a project
// header: the unit waits for release.cu because of the header's call, so
// it is parsed once, with buf_release's entry.
#include <cuda_runtime.h>
#include "include/util/release_twice.h"

void twice_through_header() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  release_checked(p);
  release_checked(p);
}
