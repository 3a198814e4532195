// Memory pools owned by allocator objects of a training framework. configure()
// may be called again when the user changes the release threshold or the
// access peers. ScratchPool re-creates its pool without releasing the previous
// one; GraphPool destroys the old pool first, and LazyPool creates it once.
#include <cuda_runtime.h>
#include <cstddef>

static cudaMemPoolProps device_pool_props(int device) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

class ScratchPool {
 public:
  explicit ScratchPool(int device) : device_(device) {}
  ~ScratchPool() {
    if (pool_) cudaMemPoolDestroy(pool_);
  }
  ScratchPool(const ScratchPool &) = delete;
  ScratchPool &operator=(const ScratchPool &) = delete;

  cudaError_t configure(size_t release_threshold, bool reuse_follow_event) {
    cudaMemPoolProps props = device_pool_props(device_);
    cudaError_t st = cudaMemPoolCreate(&pool_, &props); // EXPECT: cudagraph-handle-leak
    if (st != cudaSuccess) return st;
    cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &release_threshold);
    int follow = reuse_follow_event ? 1 : 0;
    return cudaMemPoolSetAttribute(pool_, cudaMemPoolReuseFollowEventDependencies, &follow);
  }

  void *alloc(size_t n, cudaStream_t s) {
    void *p = nullptr;
    return cudaMallocFromPoolAsync(&p, n, pool_, s) == cudaSuccess ? p : nullptr;
  }

 private:
  int device_;
  cudaMemPool_t pool_ = nullptr;
};

class GraphPool {
 public:
  explicit GraphPool(int device) : device_(device) {}
  ~GraphPool() {
    if (pool_) cudaMemPoolDestroy(pool_);
  }
  GraphPool(const GraphPool &) = delete;
  GraphPool &operator=(const GraphPool &) = delete;

  cudaError_t configure(size_t release_threshold) {
    if (pool_) {
      cudaMemPoolDestroy(pool_);
      pool_ = nullptr;
    }
    cudaMemPoolProps props = device_pool_props(device_);
    cudaError_t st = cudaMemPoolCreate(&pool_, &props);
    if (st != cudaSuccess) return st;
    return cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &release_threshold);
  }

  void *alloc(size_t n, cudaStream_t s) {
    void *p = nullptr;
    return cudaMallocFromPoolAsync(&p, n, pool_, s) == cudaSuccess ? p : nullptr;
  }

 private:
  int device_;
  cudaMemPool_t pool_ = nullptr;
};

class LazyPool {
 public:
  explicit LazyPool(int device) : device_(device) {}
  ~LazyPool() {
    if (pool_ != nullptr) cudaMemPoolDestroy(pool_);
  }
  LazyPool(const LazyPool &) = delete;
  LazyPool &operator=(const LazyPool &) = delete;

  cudaMemPool_t get() {
    if (pool_ != nullptr) return pool_;
    cudaMemPoolProps props = device_pool_props(device_);
    if (cudaMemPoolCreate(&pool_, &props) != cudaSuccess) pool_ = nullptr;
    return pool_;
  }

  void trim(size_t keep) {
    if (pool_ != nullptr) cudaMemPoolTrimTo(pool_, keep);
  }

 private:
  int device_;
  cudaMemPool_t pool_ = nullptr;
};

void train_epochs(cudaStream_t s, int epochs, size_t bytes) {
  ScratchPool scratch(0);
  GraphPool graphs(0);
  LazyPool lazy(0);
  for (int e = 0; e < epochs; ++e) {
    scratch.configure(bytes << e, e % 2 == 0);
    graphs.configure(bytes << e);
    void *a = scratch.alloc(bytes, s);
    void *b = graphs.alloc(bytes, s);
    void *c = nullptr;
    if (cudaMemPool_t p = lazy.get()) cudaMallocFromPoolAsync(&c, bytes, p, s);
    cudaFreeAsync(a, s);
    cudaFreeAsync(b, s);
    if (c) cudaFreeAsync(c, s);
    lazy.trim(bytes);
  }
  cudaStreamSynchronize(s);
}
