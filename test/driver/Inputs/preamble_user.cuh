// A user header in the preamble of preamble_main.cu: its findings come from
// declarations read back from the precompiled preamble.
#include <cuda_runtime.h>

inline void header_leak(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
}
