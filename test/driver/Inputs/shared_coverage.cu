// Three kernels with __shared__ accesses: one launched here, one launched
// elsewhere (no block shape), one through a function pointer.
#include <cuda_runtime.h>
__global__ void here(float *g) {
  __shared__ float s[256];
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void elsewhere(float *g) {
  __shared__ float s[256];
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void viaPointer(float *g) {
  __shared__ float s[256];
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void noShared(float *g) { g[threadIdx.x] = 0; }
void run(float *g) {
  here<<<1, 256>>>(g);
  void (*k)(float *) = viaPointer;
  k<<<1, 128>>>(g);
  noShared<<<1, 32>>>(g);
}
