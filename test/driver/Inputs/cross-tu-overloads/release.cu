// Overloads of one name and one parameter count in one file, as a project's
// `destroy(cudaStream_t)` and `destroy(cudaEvent_t)`
// (test/driver/cross-tu-overloads.test).
#include <cuda_runtime.h>

void destroy(cudaStream_t s) { cudaStreamDestroy(s); }

void destroy(cudaEvent_t e) { cudaEventDestroy(e); }

// No effect on its argument: no entry, but its name and count are shared.
void destroy(int device) { (void)device; }
