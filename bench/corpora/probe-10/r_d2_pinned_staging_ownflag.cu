// PLANTED: cudagraph-handle-leak line 21
// Host staging area for async checkpoint offload. The pinned buffer either comes from
// the caller's arena (borrowed) or is allocated here; a completion event is always
// created so the writer thread can wait for the D2H copy.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

static void throw_on_error(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

class PinnedStaging {
 public:
  // borrowed != nullptr: use the caller's pinned memory, don't free it.
  PinnedStaging(size_t bytes, void* borrowed = nullptr)
      : bytes_(bytes), host_(borrowed), owns_(borrowed == nullptr) {
    if (owns_) throw_on_error(cudaMallocHost(&host_, bytes_), "cudaMallocHost");
    cudaError_t st = cudaEventCreateWithFlags(&done_, cudaEventDisableTiming);
    if (st != cudaSuccess) {
      if (owns_) cudaFreeHost(host_);
      throw_on_error(st, "cudaEventCreate");
    }
  }

  ~PinnedStaging() {
    if (owns_) {
      cudaFreeHost(host_);
#ifdef BUGGY
      cudaEventDestroy(done_);
#endif
    }
#ifndef BUGGY
    cudaEventDestroy(done_);
#endif
  }

  PinnedStaging(const PinnedStaging&) = delete;
  PinnedStaging& operator=(const PinnedStaging&) = delete;

  void offload(const void* dev, size_t bytes, cudaStream_t s) {
    if (bytes > bytes_) throw std::length_error("staging too small");
    throw_on_error(cudaMemcpyAsync(host_, dev, bytes, cudaMemcpyDeviceToHost, s), "d2h");
    throw_on_error(cudaEventRecord(done_, s), "record");
  }

  void wait_and_copy(void* dst, size_t bytes) {
    throw_on_error(cudaEventSynchronize(done_), "sync");
    std::memcpy(dst, host_, bytes);
  }

 private:
  size_t bytes_;
  void* host_;
  bool owns_;
  cudaEvent_t done_ = nullptr;
};

void checkpoint_shard(const void* dev, size_t bytes, void* arena, void* out, cudaStream_t s) {
  PinnedStaging staging(bytes, arena);
  staging.offload(dev, bytes, s);
  staging.wait_and_copy(out, bytes);
}
