// PLANTED: none
// Memory pool with stream-ordered allocations; every allocation freed before pool destroy.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }

static cudaError_t make_pool(cudaMemPool_t *out, int dev) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t p;
  cudaError_t e = cudaMemPoolCreate(&p, &props);
  if (e != cudaSuccess) return e;
  unsigned long long thr = 64ull << 20;
  e = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &thr);
  if (e != cudaSuccess) { cudaMemPoolDestroy(p); return e; }
  *out = p;
  return cudaSuccess;
}

int main(void) {
  cudaMemPool_t pool;
  cudaStream_t s;
  int n = 1 << 16, rc = 1;
  int *a = NULL, *b = NULL;
  if (make_pool(&pool, 0) != cudaSuccess) return 1;
  if (cudaStreamCreate(&s) != cudaSuccess) { cudaMemPoolDestroy(pool); return 1; }
  if (cudaMallocFromPoolAsync((void **)&a, n * sizeof(int), pool, s) != cudaSuccess) goto out_stream;
  if (cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s) != cudaSuccess) goto out_a;
  iota<<<(n + 255) / 256, 256, 0, s>>>(a, n);
  cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
  if (cudaStreamSynchronize(s) == cudaSuccess) rc = 0;
  cudaFreeAsync(b, s);
out_a:
  cudaFreeAsync(a, s);
out_stream:
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaMemPoolDestroy(pool);
  return rc;
}
