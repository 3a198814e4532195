// A private memory pool per request batch. batch_buggy destroys the pool on the
// "small batch" path and then allocates from it for the tail.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1.f; }

static cudaMemPool_t make_pool(int dev) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t p = nullptr;
  if (cudaMemPoolCreate(&p, &props) != cudaSuccess) return nullptr;
  return p;
}

cudaError_t batch_buggy(int dev, int n, bool small, cudaStream_t s) {
  cudaMemPool_t pool = make_pool(dev);
  if (!pool) return cudaErrorMemoryAllocation;
  float *head = nullptr;
  cudaMallocFromPoolAsync(&head, n * sizeof(float), pool, s);
  fill<<<(n + 255) / 256, 256, 0, s>>>(head, n);
  cudaFreeAsync(head, s);
  if (small) {
    cudaStreamSynchronize(s);
    cudaMemPoolDestroy(pool);
  }
  float *tail = nullptr;
  cudaMallocFromPoolAsync(&tail, 64 * sizeof(float), pool, s); // EXPECT: cudagraph-use-after-dealloc
  fill<<<1, 64, 0, s>>>(tail, 64);
  cudaFreeAsync(tail, s);
  cudaStreamSynchronize(s);
  if (!small) cudaMemPoolDestroy(pool);
  return cudaSuccess;
}

cudaError_t batch(int dev, int n, bool small, cudaStream_t s) {
  cudaMemPool_t pool = make_pool(dev);
  if (!pool) return cudaErrorMemoryAllocation;
  float *head = nullptr;
  cudaMallocFromPoolAsync(&head, n * sizeof(float), pool, s);
  fill<<<(n + 255) / 256, 256, 0, s>>>(head, n);
  cudaFreeAsync(head, s);
  if (!small) {
    float *tail = nullptr;
    cudaMallocFromPoolAsync(&tail, 64 * sizeof(float), pool, s);
    fill<<<1, 64, 0, s>>>(tail, 64);
    cudaFreeAsync(tail, s);
  }
  cudaStreamSynchronize(s);
  cudaMemPoolDestroy(pool);
  return cudaSuccess;
}
