// Releases through a macro of whichever cfg.h the include path finds first
// (test/driver/result-cache-probes.test).
#include <cuda_runtime.h>
#include "cfg.h"

void run() {
  void *p = nullptr;
  if (cudaMalloc(&p, 64) != cudaSuccess)
    return;
  CFG_RELEASE(p);
}
