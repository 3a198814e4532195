// Releases twice through RELEASE (macros.h): the entry of buf_release
// decides the finding; the macro's body names it, so this file waits for
// release.cu and is parsed once.
#include <cuda_runtime.h>
#include "macros.h"

void twice_hidden() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  RELEASE(p);
  RELEASE(p);
}
