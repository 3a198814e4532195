// The project's release wrapper (test/driver/cross-tu-order.test).
#include <cuda_runtime.h>

void buf_release(void *p) {
  if (p)
    cudaFree(p);
}
