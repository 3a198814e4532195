// PLANTED: cudagraph-handle-leak line 42
// Rotary-embedding cos/sin cache builder of a TensorRT-LLM-style plugin. Errors are
// reported through a checking function that throws, wrapped in a macro.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace tllm {

template <typename T>
void check(T result, char const* const func, char const* const file, int const line) {
  if (result) {
    throw std::runtime_error(std::string("[TensorRT-LLM][ERROR] CUDA runtime error in ") +
                             func + ": " + cudaGetErrorString(result) + " " + file + ":" +
                             std::to_string(line));
  }
}

#define check_cuda_error(val) ::tllm::check((val), #val, __FILE__, __LINE__)

struct RopeParams {
  int rotary_dim = 128;
  int max_positions = 8192;
  float base = 10000.f;
  float scale = 1.f;
};

class RopeCache {
 public:
  explicit RopeCache(const RopeParams& p) : params_(p) {}
  ~RopeCache() {
    if (d_cos_sin_) cudaFree(d_cos_sin_);
  }

  // Builds the table on the host (pinned, for the async upload) and uploads it.
  void build(cudaStream_t stream) {
    const int half = params_.rotary_dim / 2;
    const size_t elems = static_cast<size_t>(params_.max_positions) * half * 2;
    float* h_table = nullptr;
    check_cuda_error(cudaMallocHost(&h_table, elems * sizeof(float)));
#ifndef BUGGY
    float* d_new = nullptr;
    cudaError_t st = cudaMalloc(&d_new, elems * sizeof(float));
    if (st != cudaSuccess) {
      cudaFreeHost(h_table);
      check_cuda_error(st);
    }
#endif
    for (int pos = 0; pos < params_.max_positions; ++pos) {
      for (int i = 0; i < half; ++i) {
        float inv_freq = std::pow(params_.base, -2.f * i / params_.rotary_dim);
        float angle = pos * inv_freq * params_.scale;
        h_table[(size_t)pos * half * 2 + i] = std::cos(angle);
        h_table[(size_t)pos * half * 2 + half + i] = std::sin(angle);
      }
    }
#ifdef BUGGY
    float* d_new = nullptr;
    check_cuda_error(cudaMalloc(&d_new, elems * sizeof(float)));
#endif
    cudaError_t st2 = cudaMemcpyAsync(d_new, h_table, elems * sizeof(float),
                                      cudaMemcpyHostToDevice, stream);
    if (st2 == cudaSuccess) st2 = cudaStreamSynchronize(stream);
    cudaFreeHost(h_table);
    if (st2 != cudaSuccess) {
      cudaFree(d_new);
      check_cuda_error(st2);
    }
    if (d_cos_sin_) cudaFree(d_cos_sin_);
    d_cos_sin_ = d_new;
  }

  const float* table() const { return d_cos_sin_; }

 private:
  RopeParams params_;
  float* d_cos_sin_ = nullptr;
};

}  // namespace tllm
