// The twin of cycle_a.cu.
#include <cuda_runtime.h>
void a_release(void *p);
void b_release(void *p) { cudaFree(p); }
void twice_through_a() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  a_release(p);
  a_release(p);
}
