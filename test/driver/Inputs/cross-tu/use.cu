// Calls release.cu's wrappers, which it only declares.
#include <cuda_runtime.h>

void buf_release(void *p);
void pair_release(void *a, void *b);

void twice() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  buf_release(p);
  buf_release(p);
}

void through_pair() {
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, 64) != cudaSuccess)
    return;
  if (cudaMalloc(&b, 64) != cudaSuccess) {
    buf_release(a);
    return;
  }
  pair_release(a, b);
  cudaFree(b);
}

// Not about the wrapper: a finding with a fix-it, for the cache's replay.
void host_wrong() {
  void *h = nullptr;
  if (cudaMallocHost(&h, 64) != cudaSuccess)
    return;
  cudaFree(h);
}
