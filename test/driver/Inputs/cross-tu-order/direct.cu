// Calls buf_release by name: the first pass parses it after release.cu,
// with its entry, once.
#include <cuda_runtime.h>

void buf_release(void *p);

void twice_direct() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  buf_release(p);
  buf_release(p);
}
