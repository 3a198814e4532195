// The clean twin of use.cu: each buffer released once, through the same
// wrappers.
#include <cuda_runtime.h>

void buf_release(void *p);
void pair_release(void *a, void *b);

void once() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  buf_release(p);
}

void through_pair_once() {
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, 64) != cudaSuccess)
    return;
  if (cudaMalloc(&b, 64) != cudaSuccess) {
    buf_release(a);
    return;
  }
  pair_release(a, b);
}

void host_right() {
  void *h = nullptr;
  if (cudaMallocHost(&h, 64) != cudaSuccess)
    return;
  cudaFreeHost(h);
}
