// A C++ file for test/driver/lsp.test: a leak after non-ASCII text on the
// same line (two-byte and four-byte UTF-8: LSP columns count UTF-16 units).
#include <cuda_runtime.h>

void host_leak(cudaGraph_t g) {
  cudaGraphExec_t exec; /* größe 😀 */ cudaGraphInstantiate(&exec, g, 0);
}
