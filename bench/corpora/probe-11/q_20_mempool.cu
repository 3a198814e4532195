// Stream-ordered allocation from an explicit memory pool: the pool is made
// current for the device, allocations come from cudaMallocFromPoolAsync and
// cudaMallocAsync, and cross-stream use is ordered by events; the default pool
// is restored before the private pool is destroyed.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

class PoolScope {
 public:
  explicit PoolScope(int device) : device_(device) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    if (cudaMemPoolCreate(&pool_, &props) != cudaSuccess) {
      pool_ = nullptr;
      return;
    }
    uint64_t threshold = UINT64_MAX;
    cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
    cudaDeviceGetDefaultMemPool(&default_pool_, device);
    cudaDeviceSetMemPool(device, pool_);
  }
  ~PoolScope() {
    if (!pool_) return;
    cudaDeviceSetMemPool(device_, default_pool_);
    cudaMemPoolTrimTo(pool_, 0);
    cudaMemPoolDestroy(pool_);
  }
  PoolScope(const PoolScope &) = delete;
  PoolScope &operator=(const PoolScope &) = delete;
  cudaMemPool_t get() const { return pool_; }

 private:
  int device_;
  cudaMemPool_t pool_ = nullptr;
  cudaMemPool_t default_pool_ = nullptr;
};

static int run(cudaMemPool_t pool, int n) {
  cudaStream_t producer, consumer;
  cudaEvent_t ready, consumed;
  if (cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking) != cudaSuccess) return 1;
  if (cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking) != cudaSuccess) {
    cudaStreamDestroy(producer);
    return 1;
  }
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&consumed, cudaEventDisableTiming);

  size_t bytes = size_t(n) * sizeof(float);
  float *x = nullptr, *y = nullptr;
  cudaMallocFromPoolAsync(reinterpret_cast<void **>(&x), bytes, pool, producer);
  cudaMallocAsync(&y, bytes, producer);  // comes from the current pool, i.e. `pool`
  cudaMemsetAsync(x, 0, bytes, producer);
  cudaMemsetAsync(y, 0, bytes, producer);
  cudaEventRecord(ready, producer);

  cudaStreamWaitEvent(consumer, ready, 0);
  axpy<<<(n + 255) / 256, 256, 0, consumer>>>(y, x, 2.0f, n);
  cudaEventRecord(consumed, consumer);

  cudaStreamWaitEvent(producer, consumed, 0);
  cudaFreeAsync(x, producer);
  cudaFreeAsync(y, producer);
  cudaStreamSynchronize(producer);

  size_t used = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  std::printf("in use after free: %zu\n", used);

  cudaEventDestroy(consumed);
  cudaEventDestroy(ready);
  cudaStreamDestroy(consumer);
  cudaStreamDestroy(producer);
  return 0;
}

// Allocation in one stream, freed in the same stream after the consumer joined.
static int joined_free(int n) {
  cudaStream_t a, b;
  cudaEvent_t e;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  float *t = nullptr;
  cudaMallocAsync(&t, n * sizeof(float), a);
  cudaStreamSynchronize(a);  // host sync orders the allocation before b's work
  cudaMemsetAsync(t, 0, n * sizeof(float), b);
  cudaEventRecord(e, b);
  cudaStreamWaitEvent(a, e, 0);
  cudaFreeAsync(t, a);
  cudaStreamSynchronize(a);
  cudaEventDestroy(e);
  cudaStreamDestroy(b);
  cudaStreamDestroy(a);
  return 0;
}

int main() {
  PoolScope scope(0);
  if (!scope.get()) return 1;
  return run(scope.get(), 1 << 16) | joined_free(1 << 10);
}
