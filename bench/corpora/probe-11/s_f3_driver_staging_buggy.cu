#define BUGGY
// PLANTED: cudagraph-mismatched-dealloc line 73
// Driver-API upload ring of a JIT-compiled kernel runner: host data is packed
// into a ring of page-locked slots and copied asynchronously to the device.
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#define DRV_CHECK(call)                                                        \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *msg_ = "unknown";                                            \
      cuGetErrorString(r_, &msg_);                                             \
      throw std::runtime_error(std::string(#call) + ": " + msg_);              \
    }                                                                          \
  } while (0)

class UploadRing {
 public:
  static constexpr int kSlots = 4;

  UploadRing(CUstream stream, size_t slot_bytes)
      : stream_(stream), slot_bytes_(slot_bytes) {
    for (int i = 0; i < kSlots; ++i) {
      slots_[i].host = nullptr;
      slots_[i].done = nullptr;
    }
    try {
      for (int i = 0; i < kSlots; ++i) {
        DRV_CHECK(cuMemAllocHost(&slots_[i].host, slot_bytes_));
        DRV_CHECK(cuEventCreate(&slots_[i].done, CU_EVENT_DISABLE_TIMING));
      }
    } catch (...) {
      destroy();
      throw;
    }
  }

  ~UploadRing() { destroy(); }
  UploadRing(const UploadRing &) = delete;
  UploadRing &operator=(const UploadRing &) = delete;

  // Copies `bytes` of `src` to device address `dst` through the next slot.
  void upload(CUdeviceptr dst, const void *src, size_t bytes) {
    if (bytes > slot_bytes_) throw std::invalid_argument("upload larger than slot");
    Slot &s = slots_[next_];
    next_ = (next_ + 1) % kSlots;
    if (s.used) DRV_CHECK(cuEventSynchronize(s.done));  // slot free again?
    std::memcpy(s.host, src, bytes);
    DRV_CHECK(cuMemcpyHtoDAsync(dst, s.host, bytes, stream_));
    DRV_CHECK(cuEventRecord(s.done, stream_));
    s.used = true;
  }

 private:
  struct Slot {
    void *host;
    CUevent done;
    bool used = false;
  };

  void destroy() {
    for (int i = 0; i < kSlots; ++i) {
      if (slots_[i].done) {
        cuEventSynchronize(slots_[i].done);
        cuEventDestroy(slots_[i].done);
        slots_[i].done = nullptr;
      }
      if (slots_[i].host) {
#ifdef BUGGY
        cuMemFree((CUdeviceptr)slots_[i].host);  // EXPECT: cudagraph-mismatched-dealloc
#else
        cuMemFreeHost(slots_[i].host);
#endif
        slots_[i].host = nullptr;
      }
    }
  }

  CUstream stream_;
  size_t slot_bytes_;
  Slot slots_[kSlots];
  int next_ = 0;
};

int upload_weights(CUstream stream, CUdeviceptr d_weights, const float *h_weights,
                   size_t count) {
  const size_t chunk = 1 << 20;
  try {
    UploadRing ring(stream, chunk * sizeof(float));
    for (size_t off = 0; off < count; off += chunk) {
      size_t n = count - off < chunk ? count - off : chunk;
      ring.upload(d_weights + off * sizeof(float), h_weights + off, n * sizeof(float));
    }
    DRV_CHECK(cuStreamSynchronize(stream));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "upload_weights: %s\n", e.what());
    return -1;
  }
  return 0;
}
