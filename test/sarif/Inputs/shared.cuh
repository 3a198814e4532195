// Included by two translation units: its finding must appear once in a
// merged log, as it does in one unsharded run.
#include <cuda_runtime.h>

inline void header_leak(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
}
