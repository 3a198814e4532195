// PLANTED(BUGGY): mismatched-dealloc line 23
// Double-buffered staging area; BUGGY: pinned host buffers released with cudaFree.
#include <cuda_runtime.h>
#include <string.h>

typedef struct { float *host[2]; float *dev; size_t n; cudaStream_t s; } stager_t;

int stager_init(stager_t *st, size_t n) {
  memset(st, 0, sizeof *st);
  st->n = n;
  if (cudaStreamCreate(&st->s) != cudaSuccess) return -1;
  for (int i = 0; i < 2; ++i)
    if (cudaMallocHost((void **)&st->host[i], n * sizeof(float)) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&st->dev, n * sizeof(float)) != cudaSuccess) return -1;
  return 0;
}

void stager_fini(stager_t *st) {
  if (st->s) cudaStreamSynchronize(st->s);
  for (int i = 0; i < 2; ++i) {
    if (!st->host[i]) continue;
#ifdef BUGGY
    cudaFree(st->host[i]); /*BUGLINE*/
#else
    cudaFreeHost(st->host[i]);
#endif
  }
  if (st->dev) cudaFree(st->dev);
  if (st->s) cudaStreamDestroy(st->s);
}

int main(void) {
  float *src;
  stager_t st;
  int rc = 0;
  if (cudaMallocHost((void **)&src, 1 << 22) != cudaSuccess) return 1;
  if (stager_init(&st, 1 << 18) == 0) {
    for (int k = 0; k < 4; ++k) {
      float *h = st.host[k & 1];
      memcpy(h, src, st.n * sizeof(float));
      cudaMemcpyAsync(st.dev, h, st.n * sizeof(float), cudaMemcpyHostToDevice, st.s);
    }
    rc = cudaStreamSynchronize(st.s) == cudaSuccess ? 0 : 1;
  } else rc = 1;
  stager_fini(&st);
  cudaFreeHost(src);
  return rc;
}
