// cycle_a.cu and cycle_b.cu call each other's wrapper: one of them is
// parsed first without the other's entry, and again once it appears.
#include <cuda_runtime.h>

void b_release(void *p);

void a_release(void *p) { cudaFree(p); }

void twice_through_b() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  b_release(p);
  b_release(p);
}
