// PLANTED(BUGGY): stream-order line 21
// Pool allocation made on the upload stream and consumed on the compute stream; BUGGY: no event joins them.
#include <cuda_runtime.h>

__global__ void square(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= p[i]; }

int run(cudaMemPool_t pool, const float *host, int n) {
  cudaStream_t up, comp;
  cudaEvent_t uploaded;
  float *d = NULL;
  int rc = -1;
  if (cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaStreamCreateWithFlags(&comp, cudaStreamNonBlocking) != cudaSuccess) { cudaStreamDestroy(up); return -1; }
  if (cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming) != cudaSuccess) goto streams;
  if (cudaMallocFromPoolAsync((void **)&d, n * sizeof(float), pool, up) != cudaSuccess) goto event;
  cudaMemcpyAsync(d, host, n * sizeof(float), cudaMemcpyHostToDevice, up);
#ifndef BUGGY
  cudaEventRecord(uploaded, up);
  cudaStreamWaitEvent(comp, uploaded, 0);
#endif
  square<<<(n + 255) / 256, 256, 0, comp>>>(d, n); /*BUGLINE*/
  cudaFreeAsync(d, comp);
  rc = cudaStreamSynchronize(comp) == cudaSuccess ? 0 : -1;
event:
  cudaEventDestroy(uploaded);
streams:
  cudaStreamDestroy(comp);
  cudaStreamDestroy(up);
  return rc;
}

int main(void) {
  cudaMemPoolProps pp = {};
  pp.allocType = cudaMemAllocationTypePinned;
  pp.location.type = cudaMemLocationTypeDevice; pp.location.id = 0;
  cudaMemPool_t pool;
  if (cudaMemPoolCreate(&pool, &pp) != cudaSuccess) return 1;
  static float h[4096];
  int rc = run(pool, h, 4096);
  cudaDeviceSynchronize();
  cudaMemPoolDestroy(pool);
  return rc ? 1 : 0;
}
