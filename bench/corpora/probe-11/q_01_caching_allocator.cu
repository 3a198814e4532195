// PyTorch-style caching allocator: segments split into blocks, free list ordered
// by (stream, size, ptr), events recorded per block for cross-stream reuse.
#include <cuda_runtime.h>
#include <cstdio>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <deque>
#include <utility>

namespace cache {

struct Block {
  cudaStream_t stream;
  size_t size;
  void *ptr;
  bool allocated = false;
  Block *prev = nullptr;
  Block *next = nullptr;
  std::unordered_set<cudaStream_t> stream_uses;
  int event_count = 0;
  Block(cudaStream_t s, size_t sz, void *p) : stream(s), size(sz), ptr(p) {}
};

struct BlockComparator {
  bool operator()(const Block *a, const Block *b) const {
    if (a->stream != b->stream) return (uintptr_t)a->stream < (uintptr_t)b->stream;
    if (a->size != b->size) return a->size < b->size;
    return (uintptr_t)a->ptr < (uintptr_t)b->ptr;
  }
};

class DeviceCachingAllocator {
 public:
  ~DeviceCachingAllocator() {
    synchronize_and_free_events();
    release_cached_blocks();
  }

  void *malloc(size_t size, cudaStream_t stream) {
    process_events();
    size = round_size(size);
    Block key(stream, size, nullptr);
    auto it = free_blocks_.lower_bound(&key);
    Block *block = nullptr;
    if (it != free_blocks_.end() && (*it)->stream == stream) {
      block = *it;
      free_blocks_.erase(it);
    } else {
      void *seg = nullptr;
      size_t seg_size = size < kLargeSegment ? kLargeSegment : size;
      if (cudaMalloc(&seg, seg_size) != cudaSuccess) {
        (void)cudaGetLastError();
        release_cached_blocks();
        if (cudaMalloc(&seg, seg_size) != cudaSuccess) return nullptr;
      }
      block = new Block(stream, seg_size, seg);
      segments_.insert(seg);
    }
    if (block->size - size >= kMinSplit) {
      Block *rem = new Block(stream, block->size - size, (char *)block->ptr + size);
      rem->prev = block;
      rem->next = block->next;
      if (rem->next) rem->next->prev = rem;
      block->next = rem;
      block->size = size;
      free_blocks_.insert(rem);
    }
    block->allocated = true;
    active_[block->ptr] = block;
    return block->ptr;
  }

  void free(void *p) {
    auto it = active_.find(p);
    if (it == active_.end()) return;
    Block *block = it->second;
    active_.erase(it);
    block->allocated = false;
    if (!block->stream_uses.empty()) {
      for (cudaStream_t s : block->stream_uses) {
        cudaEvent_t ev = get_event();
        cudaEventRecord(ev, s);
        block->event_count++;
        outstanding_.emplace_back(ev, block);
      }
      block->stream_uses.clear();
    } else {
      free_block(block);
    }
  }

  void record_stream(void *p, cudaStream_t s) {
    auto it = active_.find(p);
    if (it != active_.end() && s != it->second->stream) it->second->stream_uses.insert(s);
  }

 private:
  static constexpr size_t kLargeSegment = 20u << 20;
  static constexpr size_t kMinSplit = 512;
  static size_t round_size(size_t s) { return (s + 511) & ~size_t(511); }

  cudaEvent_t get_event() {
    if (!event_pool_.empty()) {
      cudaEvent_t e = event_pool_.back();
      event_pool_.pop_back();
      return e;
    }
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    return e;
  }

  void process_events() {
    while (!outstanding_.empty()) {
      auto &front = outstanding_.front();
      cudaError_t q = cudaEventQuery(front.first);
      if (q == cudaErrorNotReady) { (void)cudaGetLastError(); break; }
      Block *b = front.second;
      event_pool_.push_back(front.first);
      outstanding_.pop_front();
      if (--b->event_count == 0) free_block(b);
    }
  }

  void synchronize_and_free_events() {
    for (auto &e : outstanding_) {
      cudaEventSynchronize(e.first);
      cudaEventDestroy(e.first);
      if (--e.second->event_count == 0) free_block(e.second);
    }
    outstanding_.clear();
    for (cudaEvent_t e : event_pool_) cudaEventDestroy(e);
    event_pool_.clear();
  }

  void free_block(Block *block) {
    // merge with neighbours that are free
    for (Block *n : {block->prev, block->next}) {
      if (!n || n->allocated || n->event_count > 0) continue;
      free_blocks_.erase(n);
      if (n == block->prev) {
        block->ptr = n->ptr;
        block->prev = n->prev;
        if (block->prev) block->prev->next = block;
      } else {
        block->next = n->next;
        if (block->next) block->next->prev = block;
      }
      block->size += n->size;
      delete n;
    }
    free_blocks_.insert(block);
  }

  void release_cached_blocks() {
    for (auto it = free_blocks_.begin(); it != free_blocks_.end();) {
      Block *b = *it;
      if (!b->prev && !b->next && segments_.count(b->ptr)) {
        cudaFree(b->ptr);
        segments_.erase(b->ptr);
        it = free_blocks_.erase(it);
        delete b;
      } else {
        ++it;
      }
    }
  }

  std::set<Block *, BlockComparator> free_blocks_;
  std::unordered_map<void *, Block *> active_;
  std::unordered_set<void *> segments_;
  std::deque<std::pair<cudaEvent_t, Block *>> outstanding_;
  std::vector<cudaEvent_t> event_pool_;
};

}  // namespace cache

int main() {
  cache::DeviceCachingAllocator alloc;
  cudaStream_t s1, s2;
  if (cudaStreamCreate(&s1) != cudaSuccess) return 1;
  if (cudaStreamCreate(&s2) != cudaSuccess) { cudaStreamDestroy(s1); return 1; }
  void *a = alloc.malloc(1 << 20, s1);
  if (a) {
    cudaMemsetAsync(a, 0, 1 << 20, s1);
    alloc.record_stream(a, s2);
    cudaMemsetAsync(a, 1, 1 << 10, s2);
    alloc.free(a);
  }
  cudaStreamSynchronize(s1);
  cudaStreamSynchronize(s2);
  cudaStreamDestroy(s2);
  cudaStreamDestroy(s1);
  return 0;
}
