// PLANTED: cudagraph-mismatched-dealloc line 60
// Image-batch loader of a vision inference server: decoded frames land in
// mapped pinned memory and are normalised on the GPU into an NCHW tensor.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#define VIS_CHECK(x)                                                           \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess)                                                     \
      throw std::runtime_error(std::string(__func__) + ": " + cudaGetErrorString(e_)); \
  } while (0)

namespace vis {

struct DeviceDeleter {
  void operator()(void *p) const noexcept { cudaFree(p); }
};
struct PinnedDeleter {
  void operator()(void *p) const noexcept { cudaFreeHost(p); }
};

template <typename T>
using device_ptr = std::unique_ptr<T, DeviceDeleter>;
template <typename T>
using pinned_ptr = std::unique_ptr<T, PinnedDeleter>;

template <typename T>
device_ptr<T> make_device(size_t n) {
  void *p = nullptr;
  VIS_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return device_ptr<T>(static_cast<T *>(p));
}

__global__ void normalize_hwc_to_chw(const uint8_t *hwc, float *chw, int h, int w,
                                     float3 mean, float3 inv_std) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int b = blockIdx.z;
  if (x >= w || y >= h) return;
  const uint8_t *px = hwc + ((size_t)b * h * w + (size_t)y * w + x) * 3;
  size_t plane = (size_t)h * w;
  float *out = chw + (size_t)b * 3 * plane + (size_t)y * w + x;
  out[0] = (px[0] / 255.f - mean.x) * inv_std.x;
  out[plane] = (px[1] / 255.f - mean.y) * inv_std.y;
  out[2 * plane] = (px[2] / 255.f - mean.z) * inv_std.z;
}

class FrameBatcher {
 public:
  FrameBatcher(int batch, int h, int w) : batch_(batch), h_(h), w_(w) {
    size_t bytes = (size_t)batch * h * w * 3;
    void *host = nullptr;
    VIS_CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocWriteCombined));
    frames_.reset(static_cast<uint8_t *>(host));  // PLANTED (buggy variant): cudagraph-mismatched-dealloc
    void *dev_view = nullptr;
    VIS_CHECK(cudaHostGetDevicePointer(&dev_view, frames_.get(), 0));
    frames_dev_ = static_cast<const uint8_t *>(dev_view);
    tensor_ = make_device<float>((size_t)batch * 3 * h * w);
  }

  uint8_t *frame_slot(int i) { return frames_.get() + (size_t)i * h_ * w_ * 3; }

  const float *normalize(cudaStream_t s) {
    dim3 block(128);
    dim3 grid((w_ + 127) / 128, h_, batch_);
    normalize_hwc_to_chw<<<grid, block, 0, s>>>(
        frames_dev_, tensor_.get(), h_, w_, make_float3(0.485f, 0.456f, 0.406f),
        make_float3(1 / 0.229f, 1 / 0.224f, 1 / 0.225f));
    VIS_CHECK(cudaGetLastError());
    return tensor_.get();
  }

 private:
  int batch_, h_, w_;
#ifdef BUGGY
  device_ptr<uint8_t> frames_;
#else
  pinned_ptr<uint8_t> frames_;
#endif
  const uint8_t *frames_dev_ = nullptr;
  device_ptr<float> tensor_;
};

}  // namespace vis

int preprocess(int batch, int h, int w, cudaStream_t s) {
  try {
    vis::FrameBatcher fb(batch, h, w);
    for (int i = 0; i < batch; ++i) std::fill_n(fb.frame_slot(i), (size_t)h * w * 3, 128);
    fb.normalize(s);
    VIS_CHECK(cudaStreamSynchronize(s));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "preprocess: %s\n", e.what());
    return 1;
  }
  return 0;
}
