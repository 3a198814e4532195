// PLANTED: cudagraph-use-after-dealloc line 23
// Minimal device tensor used by a model loader: each layer's weights are uploaded into
// a DeviceTensor and kept in a vector.
#include <cuda_runtime.h>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define CU_THROW(x)                                                               \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) throw std::runtime_error(std::string(#x) + " failed"); \
  } while (0)

class DeviceTensor {
 public:
  explicit DeviceTensor(size_t numel) : numel_(numel) {
    CU_THROW(cudaMalloc(&data_, numel_ * sizeof(float)));
  }
  ~DeviceTensor() {
    if (data_) cudaFree(data_);
  }
#ifndef BUGGY
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  DeviceTensor(DeviceTensor&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), numel_(std::exchange(o.numel_, 0)) {}
  DeviceTensor& operator=(DeviceTensor&& o) noexcept {
    if (this != &o) {
      if (data_) cudaFree(data_);
      data_ = std::exchange(o.data_, nullptr);
      numel_ = std::exchange(o.numel_, 0);
    }
    return *this;
  }
#endif

  void upload(const float* host, cudaStream_t s) {
    CU_THROW(cudaMemcpyAsync(data_, host, numel_ * sizeof(float), cudaMemcpyHostToDevice, s));
  }
  float* data() const { return data_; }
  size_t numel() const { return numel_; }

 private:
  float* data_ = nullptr;
  size_t numel_ = 0;
};

struct LayerSpec {
  const float* host_weights;
  size_t numel;
};

std::vector<DeviceTensor> load_layers(const std::vector<LayerSpec>& specs, cudaStream_t s) {
  std::vector<DeviceTensor> layers;
  layers.reserve(specs.size());
  for (const LayerSpec& spec : specs) {
    DeviceTensor t(spec.numel);
    t.upload(spec.host_weights, s);
#ifdef BUGGY
    layers.push_back(t);
#else
    layers.push_back(std::move(t));
#endif
  }
  CU_THROW(cudaStreamSynchronize(s));
  return layers;
}
