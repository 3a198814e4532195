// Calls none of release.cu's wrappers: a change to them must not make a
// warm run analyse this file again (test/driver/result-cache.test).
#include <cuda_runtime.h>

void leaks() {
  cudaStream_t s;
  cudaStreamCreate(&s);
}
