// Per-device memory pools for an allocator shim. create_pool_buggy loses the pool
// when setting the release threshold fails; create_pool stores it or destroys it.
#include <cuda_runtime.h>
#include <cstdint>

struct DevicePools {
  cudaMemPool_t pool[8] = {};
};

cudaError_t create_pool_buggy(int dev, uint64_t threshold, DevicePools *out) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t p;
  cudaError_t st = cudaMemPoolCreate(&p, &props); // EXPECT: cudagraph-handle-leak
  if (st != cudaSuccess) return st;
  st = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &threshold);
  if (st != cudaSuccess) return st;
  out->pool[dev] = p;
  return cudaSuccess;
}

cudaError_t create_pool(int dev, uint64_t threshold, DevicePools *out) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t p;
  cudaError_t st = cudaMemPoolCreate(&p, &props);
  if (st != cudaSuccess) return st;
  st = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &threshold);
  if (st != cudaSuccess) {
    cudaMemPoolDestroy(p);
    return st;
  }
  out->pool[dev] = p;
  return cudaSuccess;
}

// The default pool is owned by the device; it must not be destroyed.
cudaError_t tune_default_pool(int dev, uint64_t threshold) {
  cudaMemPool_t def;
  cudaError_t st = cudaDeviceGetDefaultMemPool(&def, dev);
  if (st != cudaSuccess) return st;
  return cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold);
}

void destroy_pools(DevicePools *pools, int ndev) {
  for (int d = 0; d < ndev; ++d) {
    if (pools->pool[d]) cudaMemPoolDestroy(pools->pool[d]);
    pools->pool[d] = nullptr;
  }
}

// Scratch from a private pool, freed before the pool goes away. Correct.
cudaError_t pooled_scratch_run(int dev, size_t bytes, cudaStream_t s) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t p;
  cudaError_t st = cudaMemPoolCreate(&p, &props);
  if (st != cudaSuccess) return st;
  void *tmp = nullptr;
  st = cudaMallocFromPoolAsync(&tmp, bytes, p, s);
  if (st == cudaSuccess) {
    cudaMemsetAsync(tmp, 0, bytes, s);
    cudaFreeAsync(tmp, s);
  }
  cudaStreamSynchronize(s);
  cudaMemPoolDestroy(p);
  return st;
}
