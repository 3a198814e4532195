// A wrapper of a wrapper defined in util.cu: exported in the second pass.
#include <cuda_runtime.h>

void cuda_free(void *p);

void free_pair(void *a, void *b) {
  cuda_free(a);
  cuda_free(b);
}
