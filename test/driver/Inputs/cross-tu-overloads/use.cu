// Calls release.cu's overloads, which it only declares.
#include <cuda_runtime.h>

void destroy(cudaStream_t s);
void destroy(cudaEvent_t e);
void destroy(int device);

void streamTwice() {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess)
    return;
  destroy(s);
  cudaStreamDestroy(s);
}

void eventTwice() {
  cudaEvent_t e;
  if (cudaEventCreate(&e) != cudaSuccess)
    return;
  destroy(e);
  cudaEventDestroy(e);
}

// Each overload releases its own kind: nothing to say.
void eachOnce() {
  cudaStream_t s;
  cudaEvent_t e;
  if (cudaStreamCreate(&s) != cudaSuccess)
    return;
  if (cudaEventCreate(&e) != cudaSuccess) {
    destroy(s);
    return;
  }
  destroy(e);
  destroy(s);
  destroy(0);
}
