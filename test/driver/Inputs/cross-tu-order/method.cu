// Releases twice through pool.cu's method: methods are not ordered, so the
// method's entry reaches this unit in the second pass; found all the same.
#include <cuda_runtime.h>
#include "pool.h"

void twice_through_method(Pool &pool) {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  pool.give_back(p);
  pool.give_back(p);
}
