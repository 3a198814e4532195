// The project's release wrapper, alone in its file, as darknet's
// cuda_free() in src/cuda.c (test/driver/cross-tu-summaries.test).
#include <cuda_runtime.h>

void buf_release(void *p) {
  if (p)
    cudaFree(p);
}

// A wrapper of the wrapper: its entry needs buf_release's first.
void pair_release(void *a, void *b) {
  buf_release(a);
  buf_release(b);
}
