// A static function of the same name as util.cu's exported cuda_free(),
// which does not free: its body, not the exported entry, says what a call
// of it does here.
#include <cuda_runtime.h>

static void cuda_free(void *p) { cudaMemset(p, 0, 1); }

void clear_then_free() {
  void *p;
  if (cudaMalloc(&p, 8) != cudaSuccess)
    return;
  cuda_free(p);
  cudaFree(p);
}
