// Defines a static buf_release of its own that releases nothing, and
// calls it: the first pass gives this file release.cu's entry of the
// name (its text calls buf_release), which the parse applies to its own
// function. That result is not kept; its checks parse it once more without
// the entry, and find the leak that the body, not the entry, implies.
#include <cuda_runtime.h>

static void buf_release(void *p) { (void)p; }

void own_release() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  buf_release(p);
  buf_release(p);
}
