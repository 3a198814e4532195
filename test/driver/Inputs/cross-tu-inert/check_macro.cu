// Calls report_failure() only through a CHECK macro, with constants and a
// system function's result: no entry of it can change what this file finds.
#include <cuda_runtime.h>

void report_failure(const char *what, const char *file, int line, const char *msg);

#define CHECK(e)                                                                 \
  do {                                                                           \
    cudaError_t err_ = (e);                                                      \
    if (err_ != cudaSuccess)                                                     \
      report_failure(#e, __FILE__, __LINE__, cudaGetErrorString(err_));          \
  } while (0)

void leaks() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
}
