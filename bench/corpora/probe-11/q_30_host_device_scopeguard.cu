// Plain host malloc/free mixed with device and pinned memory, released by a
// scope guard (Folly/abseil-style SCOPE_EXIT with dismiss), plus a pageable
// buffer pinned in place with cudaHostRegister.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>
#include <cstdio>

class ScopeGuard {
 public:
  explicit ScopeGuard(std::function<void()> f) : f_(std::move(f)) {}
  ~ScopeGuard() {
    if (active_) f_();
  }
  void dismiss() { active_ = false; }
  ScopeGuard(const ScopeGuard &) = delete;
  ScopeGuard &operator=(const ScopeGuard &) = delete;

 private:
  std::function<void()> f_;
  bool active_ = true;
};

__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

struct Histogram {
  unsigned *bins;  // host, malloc'd
  int nbins;
};

// Returns a malloc'd histogram on success; the caller frees it with free().
static Histogram *compute_histogram(const unsigned char *host_data, int n) {
  unsigned char *d_data = nullptr;
  unsigned *d_bins = nullptr;
  unsigned *h_bins = nullptr;
  Histogram *result = static_cast<Histogram *>(malloc(sizeof(Histogram)));
  if (!result) return nullptr;
  ScopeGuard free_result([&] { free(result); });

  if (cudaMalloc(&d_data, n) != cudaSuccess) return nullptr;
  ScopeGuard free_data([&] { cudaFree(d_data); });
  if (cudaMalloc(&d_bins, 256 * sizeof(unsigned)) != cudaSuccess) return nullptr;
  ScopeGuard free_bins([&] { cudaFree(d_bins); });
  if (cudaMallocHost(&h_bins, 256 * sizeof(unsigned)) != cudaSuccess) return nullptr;
  ScopeGuard free_pinned([&] { cudaFreeHost(h_bins); });

  cudaMemcpy(d_data, host_data, n, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, 256 * sizeof(unsigned));
  histogram<<<(n + 255) / 256, 256>>>(d_data, d_bins, n);
  if (cudaMemcpy(h_bins, d_bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess) return nullptr;

  result->bins = static_cast<unsigned *>(malloc(256 * sizeof(unsigned)));
  if (!result->bins) return nullptr;
  memcpy(result->bins, h_bins, 256 * sizeof(unsigned));
  result->nbins = 256;
  free_result.dismiss();
  return result;
}

// Pins an existing pageable buffer for the duration of an async upload.
static int upload_registered(unsigned char *pageable, size_t n, unsigned char *d_dst, cudaStream_t s) {
  if (cudaHostRegister(pageable, n, cudaHostRegisterDefault) != cudaSuccess) {
    // Fall back to a synchronous copy from pageable memory.
    return cudaMemcpy(d_dst, pageable, n, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : 1;
  }
  cudaMemcpyAsync(d_dst, pageable, n, cudaMemcpyHostToDevice, s);
  cudaError_t st = cudaStreamSynchronize(s);
  cudaHostUnregister(pageable);
  return st == cudaSuccess ? 0 : 1;
}

int main() {
  const int n = 1 << 20;
  unsigned char *data = static_cast<unsigned char *>(malloc(n));
  if (!data) return 1;
  for (int i = 0; i < n; ++i) data[i] = (unsigned char)(i * 31);
  Histogram *h = compute_histogram(data, n);
  int rc = h ? 0 : 1;
  if (h) {
    std::printf("bin[0]=%u\n", h->bins[0]);
    free(h->bins);
    free(h);
  }

  cudaStream_t s;
  unsigned char *d = nullptr;
  if (cudaStreamCreate(&s) == cudaSuccess) {
    if (cudaMalloc(&d, n) == cudaSuccess) {
      rc |= upload_registered(data, n, d, s);
      cudaFree(d);
    }
    cudaStreamDestroy(s);
  }
  free(data);
  return rc;
}
