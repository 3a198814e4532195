#define BUGGY
// PLANTED(BUGGY): use-after-dealloc line 30
// Producer and consumer share one stream; BUGGY: both owners destroy it.
#include <cuda_runtime.h>

typedef struct { cudaStream_t stream; float *buf; int owns_stream; } producer_t;
typedef struct { cudaStream_t stream; cudaEvent_t ready; } consumer_t;

__global__ void produce(float *b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = (float)i; }

int main(void) {
  producer_t p = {0, 0, 1};
  consumer_t c = {0, 0};
  int n = 1 << 16;
  if (cudaStreamCreate(&p.stream) != cudaSuccess) return 1;
  if (cudaMalloc((void **)&p.buf, n * sizeof(float)) != cudaSuccess) { cudaStreamDestroy(p.stream); return 1; }
  c.stream = p.stream;                 /* consumer borrows the producer's stream */
  if (cudaEventCreate(&c.ready) != cudaSuccess) { cudaFree(p.buf); cudaStreamDestroy(p.stream); return 1; }

  produce<<<(n + 255) / 256, 256, 0, p.stream>>>(p.buf, n);
  cudaEventRecord(c.ready, c.stream);
  cudaEventSynchronize(c.ready);

  /* consumer teardown */
  cudaEventDestroy(c.ready);
#ifdef BUGGY
  cudaStreamDestroy(c.stream);
#endif
  /* producer teardown */
  cudaFree(p.buf);
  if (p.owns_stream) cudaStreamDestroy(p.stream); /*BUGLINE*/  // EXPECT: cudagraph-use-after-dealloc
  return 0;
}
