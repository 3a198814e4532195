// Owners whose destructor releases its members through a private release_all()
// (and a free helper for events). The allocator class forgets its memory pool
// in release_all(): the pool is created in init() and released nowhere.
#include <cuda_runtime.h>
#include <cstddef>

static void destroy_event(cudaEvent_t &e) {
  if (e) cudaEventDestroy(e);
  e = nullptr;
}

class StagingContext {
 public:
  StagingContext() = default;
  ~StagingContext() { release_all(); }
  StagingContext(const StagingContext &) = delete;
  StagingContext &operator=(const StagingContext &) = delete;

  cudaError_t init(size_t bytes) {
    release_all();
    cudaError_t st = cudaStreamCreateWithFlags(&h2d_, cudaStreamNonBlocking);
    if (st != cudaSuccess) return st;
    if ((st = cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming)) != cudaSuccess) return st;
    if ((st = cudaMallocHost(&host_, bytes)) != cudaSuccess) return st;
    if ((st = cudaMalloc(&dev_, bytes)) != cudaSuccess) return st;
    bytes_ = bytes;
    return cudaSuccess;
  }

  cudaError_t upload(const void *src) {
    cudaMemcpyAsync(dev_, host_, bytes_, cudaMemcpyHostToDevice, h2d_);
    (void)src;
    return cudaEventRecord(copied_, h2d_);
  }

 private:
  void release_all() {
    destroy_event(copied_);
    if (h2d_) cudaStreamDestroy(h2d_);
    h2d_ = nullptr;
    cudaFreeHost(host_);
    host_ = nullptr;
    cudaFree(dev_);
    dev_ = nullptr;
  }

  cudaStream_t h2d_ = nullptr;
  cudaEvent_t copied_ = nullptr;
  void *host_ = nullptr;
  void *dev_ = nullptr;
  size_t bytes_ = 0;
};

class PoolAllocator {
 public:
  PoolAllocator() = default;
  ~PoolAllocator() { release_all(); }
  PoolAllocator(const PoolAllocator &) = delete;
  PoolAllocator &operator=(const PoolAllocator &) = delete;

  cudaError_t init(int device, size_t threshold) {
    if (pool_) return cudaSuccess;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaError_t st = cudaMemPoolCreate(&pool_, &props); // EXPECT: cudagraph-handle-leak
    if (st != cudaSuccess) return st;
    cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
    st = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (st != cudaSuccess) return st;
    return cudaEventCreateWithFlags(&idle_, cudaEventDisableTiming);
  }

  void *alloc(size_t n) {
    void *p = nullptr;
    if (cudaMallocFromPoolAsync(&p, n, pool_, stream_) != cudaSuccess) return nullptr;
    return p;
  }
  void free_async(void *p) { cudaFreeAsync(p, stream_); }
  void mark_idle() { cudaEventRecord(idle_, stream_); }

 private:
  void release_all() {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
    destroy_event(idle_);
    stream_ = nullptr;
  }

  cudaMemPool_t pool_ = nullptr;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t idle_ = nullptr;
};

int run_staging(const void *src, size_t bytes) {
  StagingContext ctx;
  if (ctx.init(bytes) != cudaSuccess) return 1;
  if (ctx.init(bytes * 2) != cudaSuccess) return 1;
  ctx.upload(src);
  PoolAllocator pa;
  if (pa.init(0, bytes) != cudaSuccess) return 2;
  void *p = pa.alloc(bytes);
  pa.free_async(p);
  pa.mark_idle();
  return 0;
}
