// PLANTED: cudagraph-handle-leak line 50
// Header-style segmented key sorter (never instantiated in this translation unit):
// owns double buffers for keys, and allocates a per-call temporary for the
// histogram pass.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#define CUDA_TRY(call)                                                        \
  do {                                                                        \
    cudaError_t const status = (call);                                        \
    if (cudaSuccess != status) {                                              \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorName(status),   \
              __FILE__, __LINE__);                                            \
      return status;                                                          \
    }                                                                         \
  } while (0)

template <typename KeyT>
__global__ void radix_histogram(const KeyT* keys, unsigned* hist, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[(static_cast<uint64_t>(keys[i]) >> shift) & 0xff], 1u);
}

template <typename KeyT>
size_t temp_storage_bytes(int n) {
  constexpr int passes = (sizeof(KeyT) * 8 + 7) / 8;
  return size_t(passes) * 256 * sizeof(unsigned) + size_t(n) * sizeof(KeyT);
}

template <typename KeyT>
class SegmentedSorter {
 public:
  explicit SegmentedSorter(int capacity) : capacity_(capacity) {
    if (cudaMalloc(reinterpret_cast<void**>(&keys_alt_), sizeof(KeyT) * capacity_) !=
        cudaSuccess)
      keys_alt_ = nullptr;
  }
  ~SegmentedSorter() {
    if (keys_alt_) cudaFree(keys_alt_);
  }
  SegmentedSorter(const SegmentedSorter&) = delete;
  SegmentedSorter& operator=(const SegmentedSorter&) = delete;

  cudaError_t sort(KeyT* keys, int n, cudaStream_t stream) {
    if (n > capacity_ || keys_alt_ == nullptr) return cudaErrorInvalidValue;
    size_t bytes = temp_storage_bytes<KeyT>(n);
    void* d_temp = nullptr;
    CUDA_TRY(cudaMalloc(&d_temp, bytes));
#ifdef BUGGY
    CUDA_TRY(cudaMemsetAsync(d_temp, 0, bytes, stream));
#else
    cudaError_t st = cudaMemsetAsync(d_temp, 0, bytes, stream);
    if (st != cudaSuccess) {
      cudaFree(d_temp);
      return st;
    }
#endif
    unsigned* hist = static_cast<unsigned*>(d_temp);
    constexpr int bits = sizeof(KeyT) * 8;
    for (int shift = 0; shift < bits; shift += 8) {
      radix_histogram<KeyT><<<(n + 255) / 256, 256, 0, stream>>>(keys, hist, n, shift);
      hist += 256;
    }
    cudaError_t launch = cudaGetLastError();
    cudaFree(d_temp);
    return launch;
  }

  int capacity() const { return capacity_; }

 private:
  int capacity_;
  KeyT* keys_alt_ = nullptr;
};
