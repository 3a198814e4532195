// Passes its own pointer to report_failure(): the entry decides whether
// that pointer escapes there, so this file is analysed again once the
// entry appears.
#include <cuda_runtime.h>

void report_failure(const char *what, const char *file, int line, const char *msg);

void leaks_named(const char *label) {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess)
    report_failure(label, __FILE__, __LINE__, "create");
}
