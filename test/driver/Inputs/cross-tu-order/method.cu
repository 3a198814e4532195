// Releases twice through pool.cu's method: `pool.give_back(p)` names the
// method pool.cu defines as `Pool::give_back(...) {`, so the unit waits for
// pool.cu and is parsed once, with the method's entry.
#include <cuda_runtime.h>
#include "pool.h"

void twice_through_method(Pool &pool) {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  pool.give_back(p);
  pool.give_back(p);
}
