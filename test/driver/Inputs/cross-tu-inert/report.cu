// An error reporter in its own file, as ggml's ggml_cuda_error(): its
// summary uses its arguments, so every caller consumes an entry for it.
#include <cuda_runtime.h>
#include <cstdio>

void report_failure(const char *what, const char *file, int line, const char *msg) {
  int id = -1;
  (void)cudaGetDevice(&id);
  std::fprintf(stderr, "%s at %s:%d: %s (device %d)\n", what, file, line, msg, id);
}
