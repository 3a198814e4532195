#define BUGGY
// PLANTED: cudagraph-mismatched-dealloc line 46
/*
 * tensor.c -- plain-C tensor type of a small embeddable inference library
 * (llama.c-style). A tensor's storage lives either in host RAM or on the GPU.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { TENSOR_HOST = 0, TENSOR_CUDA = 1 } tensor_place;

typedef struct {
  float *data;
  int64_t shape[4];
  int ndim;
  tensor_place place;
} tensor;

static size_t tensor_numel(const tensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= (size_t)t->shape[i];
  return n;
}

int tensor_alloc(tensor *t, const int64_t *shape, int ndim, tensor_place place) {
  if (ndim < 1 || ndim > 4) return -1;
  memset(t, 0, sizeof(*t));
  memcpy(t->shape, shape, sizeof(int64_t) * ndim);
  t->ndim = ndim;
  t->place = place;
  size_t bytes = tensor_numel(t) * sizeof(float);
  if (place == TENSOR_CUDA) {
    if (cudaMalloc((void **)&t->data, bytes) != cudaSuccess) return -1;
  } else {
    t->data = (float *)malloc(bytes);
    if (!t->data) return -1;
  }
  return 0;
}

void tensor_free(tensor *t) {
  if (!t->data) return;
#ifdef BUGGY
  free(t->data);  // planted here; reported at line 61
#else
  if (t->place == TENSOR_CUDA)
    cudaFree(t->data);
  else
    free(t->data);
#endif
  t->data = NULL;
}

int tensor_to_device(const tensor *src, tensor *dst) {
  if (tensor_alloc(dst, src->shape, src->ndim, TENSOR_CUDA) != 0) return -1;
  if (cudaMemcpy(dst->data, src->data, tensor_numel(src) * sizeof(float),
                 cudaMemcpyHostToDevice) != cudaSuccess) {
    tensor_free(dst);  // EXPECT: cudagraph-mismatched-dealloc
    return -1;
  }
  return 0;
}

__global__ void silu_kernel(float *x, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] / (1.0f + expf(-x[i]));
}

int tensor_silu_(tensor *t) {
  size_t n = tensor_numel(t);
  if (t->place != TENSOR_CUDA) {
    for (size_t i = 0; i < n; ++i) t->data[i] = t->data[i] / (1.0f + expf(-t->data[i]));
    return 0;
  }
  silu_kernel<<<(unsigned)((n + 255) / 256), 256>>>(t->data, n);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

int run_mlp_activation(const float *host_in, float *host_out, int64_t rows, int64_t cols) {
  int64_t shape[2] = {rows, cols};
  tensor h, d;
  if (tensor_alloc(&h, shape, 2, TENSOR_HOST) != 0) return -1;
  memcpy(h.data, host_in, tensor_numel(&h) * sizeof(float));
  if (tensor_to_device(&h, &d) != 0) {
    tensor_free(&h);
    return -1;
  }
  int rc = tensor_silu_(&d);
  if (rc == 0 && cudaMemcpy(host_out, d.data, tensor_numel(&d) * sizeof(float),
                            cudaMemcpyDeviceToHost) != cudaSuccess)
    rc = -1;
  tensor_free(&d);
  tensor_free(&h);
  return rc;
}
