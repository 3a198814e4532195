// Torch-extension style code whose check macro throws a C++ exception that the
// Python binding layer catches: the process keeps running, so a raw allocation
// live at the throw is leaked for good. Two correct shapes (unique_ptr owner,
// catch-release-rethrow) and one that leaks on the throw.
#include <cuda_runtime.h>
#include <memory>
#include <stdexcept>
#include <string>

#define C10_CHECK_CUDA(expr)                                                  \
  do {                                                                        \
    cudaError_t e_ = (expr);                                                  \
    if (e_ != cudaSuccess)                                                    \
      throw std::runtime_error(std::string("CUDA error: ") + cudaGetErrorString(e_)); \
  } while (0)

__global__ void gather(const float *src, const int *idx, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]];
}

void gather_leaky(const float *src, const int *h_idx, float *dst, int n, cudaStream_t s) {
  int *d_idx = nullptr;
  C10_CHECK_CUDA(cudaMalloc(&d_idx, n * sizeof(int))); // EXPECT: cudagraph-handle-leak
  C10_CHECK_CUDA(cudaMemcpyAsync(d_idx, h_idx, n * sizeof(int), cudaMemcpyHostToDevice, s));
  gather<<<(n + 255) / 256, 256, 0, s>>>(src, d_idx, dst, n);
  C10_CHECK_CUDA(cudaGetLastError());
  C10_CHECK_CUDA(cudaStreamSynchronize(s));
  cudaFree(d_idx);
}

struct Freer {
  void operator()(int *p) const { cudaFree(p); }
};

void gather_owned(const float *src, const int *h_idx, float *dst, int n, cudaStream_t s) {
  int *raw = nullptr;
  C10_CHECK_CUDA(cudaMalloc(&raw, n * sizeof(int)));
  std::unique_ptr<int, Freer> d_idx(raw);
  C10_CHECK_CUDA(cudaMemcpyAsync(d_idx.get(), h_idx, n * sizeof(int), cudaMemcpyHostToDevice, s));
  gather<<<(n + 255) / 256, 256, 0, s>>>(src, d_idx.get(), dst, n);
  C10_CHECK_CUDA(cudaGetLastError());
  C10_CHECK_CUDA(cudaStreamSynchronize(s));
}

void gather_catch(const float *src, const int *h_idx, float *dst, int n, cudaStream_t s) {
  int *d_idx = nullptr;
  C10_CHECK_CUDA(cudaMalloc(&d_idx, n * sizeof(int)));
  try {
    C10_CHECK_CUDA(cudaMemcpyAsync(d_idx, h_idx, n * sizeof(int), cudaMemcpyHostToDevice, s));
    gather<<<(n + 255) / 256, 256, 0, s>>>(src, d_idx, dst, n);
    C10_CHECK_CUDA(cudaGetLastError());
    C10_CHECK_CUDA(cudaStreamSynchronize(s));
  } catch (...) {
    cudaFree(d_idx);
    throw;
  }
  cudaFree(d_idx);
}
