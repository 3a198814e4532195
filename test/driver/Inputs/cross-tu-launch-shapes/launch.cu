// Launches kernels defined in kernels.cu.
#include <cuda_runtime.h>

__global__ void scale(float *out);
template <int N> __global__ void fill(float *out);

void run(float *d, cudaStream_t s) {
  scale<<<1, 128, 0, s>>>(d);
  fill<64><<<1, 64, 0, s>>>(d);
  fill<128><<<1, 128, 0, s>>>(d);
}

__global__ void wide(float *out);

template <typename... Args>
void launch(void (*kernel)(Args...), dim3 block, cudaStream_t s, Args... args) {
  kernel<<<1, block, 0, s>>>(args...);
}

void runWide(float *d, cudaStream_t s) {
  launch(wide, dim3(64), s, d);
}
