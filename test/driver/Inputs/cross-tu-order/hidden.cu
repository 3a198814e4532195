// Releases twice through RELEASE (macros.h): the entry of buf_release
// decides the finding, and it appears only after this file's first parse,
// which did not wait for release.cu. So it is analysed again.
#include <cuda_runtime.h>
#include "macros.h"

void twice_hidden() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  RELEASE(p);
  RELEASE(p);
}
