// Per-layer KV buffers kept in a std::vector. DeviceBuffer frees in its
// destructor and has the implicit copy constructor (its user-declared
// destructor suppresses the implicit move), so push_back of a temporary copies
// it and the temporary's destructor frees the memory the element keeps; vector
// growth copies again. KvBlock is move-only with a noexcept move constructor.
#include <cuda_runtime.h>
#include <cstddef>
#include <utility>
#include <vector>

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) { cudaMalloc(&ptr_, bytes); }
  ~DeviceBuffer() { cudaFree(ptr_); } // EXPECT: cudagraph-use-after-dealloc
  void *data() const { return ptr_; }
  size_t size() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

class KvBlock {
 public:
  explicit KvBlock(size_t bytes) : bytes_(bytes) { cudaMalloc(&ptr_, bytes); }
  ~KvBlock() { cudaFree(ptr_); }
  KvBlock(const KvBlock &) = delete;
  KvBlock &operator=(const KvBlock &) = delete;
  KvBlock(KvBlock &&o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(o.bytes_) {}
  KvBlock &operator=(KvBlock &&o) noexcept {
    if (this != &o) {
      cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = o.bytes_;
    }
    return *this;
  }
  void *data() const { return ptr_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

size_t allocate_cache(int layers, size_t bytes_per_layer, std::vector<void *> &out) {
  std::vector<DeviceBuffer> bufs;
  for (int l = 0; l < layers; ++l) bufs.push_back(DeviceBuffer(bytes_per_layer));
  for (auto &b : bufs) out.push_back(b.data());
  size_t total = 0;
  for (auto &b : bufs) total += b.size();
  return total;
}

size_t allocate_cache_fixed(int layers, size_t bytes_per_layer, std::vector<KvBlock> &blocks) {
  blocks.reserve(blocks.size() + layers);
  for (int l = 0; l < layers; ++l) blocks.emplace_back(bytes_per_layer);
  blocks.push_back(KvBlock(bytes_per_layer));
  return blocks.size() * bytes_per_layer;
}
