// PLANTED: none
// C library with opaque handle; goto cleanup; ownership moves out through out-param.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <stdio.h>

typedef struct ctx_s {
  cudaStream_t stream;
  cudaEvent_t done;
  float *dbuf;
  size_t n;
} *ctx_t;

__global__ void scale(float *p, size_t n, float a) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= a;
}

int ctx_create(ctx_t *out, size_t n) {
  int rc = -1;
  cudaStream_t s = NULL;
  cudaEvent_t e = NULL;
  float *d = NULL;
  ctx_t c = NULL;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) goto fail;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) goto fail;
  if (cudaMalloc((void **)&d, n * sizeof(float)) != cudaSuccess) goto fail;
  c = (ctx_t)calloc(1, sizeof(*c));
  if (!c) goto fail;
  c->stream = s; c->done = e; c->dbuf = d; c->n = n;
  *out = c;
  return 0;
fail:
  if (d) cudaFree(d);
  if (e) cudaEventDestroy(e);
  if (s) cudaStreamDestroy(s);
  return rc;
}

void ctx_destroy(ctx_t c) {
  if (!c) return;
  cudaStreamSynchronize(c->stream);
  cudaFree(c->dbuf);
  cudaEventDestroy(c->done);
  cudaStreamDestroy(c->stream);
  free(c);
}

int ctx_run(ctx_t c, float a) {
  scale<<<(unsigned)((c->n + 255) / 256), 256, 0, c->stream>>>(c->dbuf, c->n, a);
  if (cudaGetLastError() != cudaSuccess) return -1;
  if (cudaEventRecord(c->done, c->stream) != cudaSuccess) return -1;
  return cudaEventSynchronize(c->done) == cudaSuccess ? 0 : -1;
}

int main(void) {
  ctx_t c;
  if (ctx_create(&c, 1 << 20) != 0) { fprintf(stderr, "create failed\n"); return 1; }
  int rc = ctx_run(c, 2.0f);
  ctx_destroy(c);
  return rc ? 1 : 0;
}
