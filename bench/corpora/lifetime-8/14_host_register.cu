// Page-locking caller-owned buffers with cudaHostRegister for async copies. The
// registered memory belongs to malloc: it is unregistered and then free()d.
// release_input_buggy hands it to cudaFreeHost instead.
#include <cuda_runtime.h>
#include <cstdlib>

struct HostTensor {
  float *data = nullptr;
  size_t n = 0;
  bool registered = false;
};

bool make_input(HostTensor *t, size_t n) {
  t->data = static_cast<float *>(std::malloc(n * sizeof(float)));
  if (!t->data) return false;
  t->n = n;
  t->registered = cudaHostRegister(t->data, n * sizeof(float), cudaHostRegisterDefault) == cudaSuccess;
  return true;
}

void release_input(HostTensor *t) {
  if (t->registered) cudaHostUnregister(t->data);
  std::free(t->data);
  t->data = nullptr;
}

cudaError_t stream_in(float *d_dst, size_t n, cudaStream_t s) {
  float *buf = static_cast<float *>(std::malloc(n * sizeof(float)));
  if (!buf) return cudaErrorMemoryAllocation;
  for (size_t i = 0; i < n; ++i) buf[i] = (float)i;
  cudaError_t st = cudaHostRegister(buf, n * sizeof(float), cudaHostRegisterPortable);
  if (st != cudaSuccess) {
    std::free(buf);
    return st;
  }
  st = cudaMemcpyAsync(d_dst, buf, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(buf);
  std::free(buf);
  return st;
}

cudaError_t stream_in_buggy(float *d_dst, size_t n, cudaStream_t s) {
  float *buf = static_cast<float *>(std::malloc(n * sizeof(float)));
  if (!buf) return cudaErrorMemoryAllocation;
  for (size_t i = 0; i < n; ++i) buf[i] = 1.f;
  cudaError_t st = cudaHostRegister(buf, n * sizeof(float), cudaHostRegisterDefault);
  if (st != cudaSuccess) {
    std::free(buf);
    return st;
  }
  st = cudaMemcpyAsync(d_dst, buf, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFreeHost(buf); // EXPECT: cudagraph-mismatched-dealloc
  return st;
}
