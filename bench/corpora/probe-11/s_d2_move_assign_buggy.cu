#define BUGGY
// PLANTED: cudagraph-handle-leak line 46
// Movable owner of a paged KV-cache block pool on one device. The scheduler
// replaces the pool when the model is hot-swapped (move-assignment).
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define KV_CHECK(call)                                                         \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      throw std::runtime_error(std::string(#call) + ": " +                     \
                               cudaGetErrorString(err_));                      \
  } while (0)

class KvBlockPool {
 public:
  KvBlockPool() = default;
  KvBlockPool(size_t num_blocks, size_t block_bytes)
      : num_blocks_(num_blocks), block_bytes_(block_bytes) {
    KV_CHECK(cudaMalloc(&base_, num_blocks_ * block_bytes_));
    free_list_.reserve(num_blocks_);
    for (size_t i = num_blocks_; i-- > 0;) free_list_.push_back(i);
  }

  ~KvBlockPool() {
    if (base_) cudaFree(base_);
  }

  KvBlockPool(const KvBlockPool &) = delete;
  KvBlockPool &operator=(const KvBlockPool &) = delete;

  KvBlockPool(KvBlockPool &&o) noexcept
      : base_(std::exchange(o.base_, nullptr)),
        num_blocks_(std::exchange(o.num_blocks_, 0)),
        block_bytes_(std::exchange(o.block_bytes_, 0)),
        free_list_(std::move(o.free_list_)) {}

  KvBlockPool &operator=(KvBlockPool &&o) noexcept {
    if (this == &o) return *this;
#ifdef BUGGY
    base_ = std::exchange(o.base_, nullptr);  // EXPECT: cudagraph-handle-leak
#else
    if (base_) cudaFree(base_);
    base_ = std::exchange(o.base_, nullptr);
#endif
    num_blocks_ = std::exchange(o.num_blocks_, 0);
    block_bytes_ = std::exchange(o.block_bytes_, 0);
    free_list_ = std::move(o.free_list_);
    return *this;
  }

  void *block(size_t idx) const {
    return static_cast<char *>(base_) + idx * block_bytes_;
  }

  bool allocate(size_t *idx) {
    if (free_list_.empty()) return false;
    *idx = free_list_.back();
    free_list_.pop_back();
    return true;
  }

  void release(size_t idx) { free_list_.push_back(idx); }

  size_t free_blocks() const { return free_list_.size(); }

 private:
  void *base_ = nullptr;
  size_t num_blocks_ = 0;
  size_t block_bytes_ = 0;
  std::vector<size_t> free_list_;
};

__global__ void zero_block(uint4 *p, size_t n_vec) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n_vec) p[i] = make_uint4(0, 0, 0, 0);
}

struct Engine {
  KvBlockPool pool;
  size_t block_bytes = 0;

  void load_model(size_t blocks, size_t block_bytes_) {
    block_bytes = block_bytes_;
    pool = KvBlockPool(blocks, block_bytes_);
  }

  bool new_sequence(cudaStream_t s, size_t *first_block) {
    if (!pool.allocate(first_block)) return false;
    size_t n_vec = block_bytes / sizeof(uint4);
    zero_block<<<(unsigned)((n_vec + 255) / 256), 256, 0, s>>>(
        static_cast<uint4 *>(pool.block(*first_block)), n_vec);
    return cudaGetLastError() == cudaSuccess;
  }
};

void hot_swap(Engine &eng, cudaStream_t s) {
  eng.load_model(1024, 64 * 1024);
  size_t b;
  eng.new_sequence(s, &b);
  cudaStreamSynchronize(s);
  // new weights arrive: rebuild the pool with a different block size
  eng.load_model(2048, 32 * 1024);
}
