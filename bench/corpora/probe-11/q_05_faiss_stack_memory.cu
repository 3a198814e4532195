// faiss-style StackDeviceMemory: one pre-allocated region handed out as a
// stack; requests that do not fit fall back to cudaMalloc and are freed on
// return. Temporary allocations return their memory in their destructor.
#include <cuda_runtime.h>
#include <list>
#include <memory>
#include <stdexcept>
#include <cstdio>

#define FAISS_ASSERT(x) do { if (!(x)) { std::fprintf(stderr, "assert %s\n", #x); std::abort(); } } while (0)
#define CUDA_VERIFY(x) do { cudaError_t e_ = (x); FAISS_ASSERT(e_ == cudaSuccess); } while (0)

namespace gpu {

class StackDeviceMemory {
 public:
  struct Range {
    char *start, *end;
  };

  StackDeviceMemory(int device, size_t size) : device_(device), size_(size), isOwner_(true) {
    CUDA_VERIFY(cudaSetDevice(device));
    cudaError_t err = cudaMalloc(&start_, size_);
    if (err != cudaSuccess) {
      start_ = nullptr;
      size_ = 0;
    }
    head_ = start_;
    end_ = start_ + size_;
  }

  StackDeviceMemory(int device, void *p, size_t size)
      : device_(device), start_((char *)p), end_((char *)p + size), head_((char *)p), size_(size),
        isOwner_(false) {}

  ~StackDeviceMemory() {
    FAISS_ASSERT(head_ == start_);
    if (isOwner_ && start_) {
      cudaSetDevice(device_);
      CUDA_VERIFY(cudaFree(start_));
    }
  }

  char *getAlloc(size_t size, cudaStream_t stream) {
    size = (size + 255) & ~size_t(255);
    if (size > size_t(end_ - head_)) {
      char *p = nullptr;
      CUDA_VERIFY(cudaMalloc(&p, size));
      overflow_.push_back(Range{p, p + size});
      return p;
    }
    char *p = head_;
    head_ += size;
    lastStream_ = stream;
    stack_.push_back(Range{p, head_});
    return p;
  }

  void returnAlloc(char *p, size_t size, cudaStream_t stream) {
    for (auto it = overflow_.begin(); it != overflow_.end(); ++it) {
      if (it->start == p) {
        cudaStreamSynchronize(stream);
        CUDA_VERIFY(cudaFree(p));
        overflow_.erase(it);
        return;
      }
    }
    FAISS_ASSERT(!stack_.empty() && stack_.back().start == p);
    head_ = stack_.back().start;
    stack_.pop_back();
    (void)size;
  }

 private:
  int device_;
  char *start_ = nullptr;
  char *end_ = nullptr;
  char *head_ = nullptr;
  size_t size_;
  bool isOwner_;
  cudaStream_t lastStream_ = nullptr;
  std::list<Range> stack_;
  std::list<Range> overflow_;
};

template <typename T>
class DeviceTensor {
 public:
  DeviceTensor(StackDeviceMemory &res, size_t n, cudaStream_t stream)
      : res_(&res), n_(n), stream_(stream) {
    data_ = reinterpret_cast<T *>(res.getAlloc(n * sizeof(T), stream));
  }
  ~DeviceTensor() {
    if (data_) res_->returnAlloc(reinterpret_cast<char *>(data_), n_ * sizeof(T), stream_);
  }
  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;
  T *data() { return data_; }

 private:
  StackDeviceMemory *res_;
  size_t n_;
  cudaStream_t stream_;
  T *data_ = nullptr;
};

}  // namespace gpu

__global__ void l2Norm(const float *x, float *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int k = 0; k < d; ++k) s += x[i * d + k] * x[i * d + k];
  out[i] = s;
}

int searchBatch(gpu::StackDeviceMemory &mem, const float *queries, int n, int d, float *hostOut) {
  cudaStream_t stream;
  CUDA_VERIFY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    gpu::DeviceTensor<float> q(mem, size_t(n) * d, stream);
    gpu::DeviceTensor<float> norms(mem, n, stream);
    cudaMemcpyAsync(q.data(), queries, sizeof(float) * n * d, cudaMemcpyHostToDevice, stream);
    l2Norm<<<(n + 127) / 128, 128, 0, stream>>>(q.data(), norms.data(), n, d);
    cudaMemcpyAsync(hostOut, norms.data(), sizeof(float) * n, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
  }
  cudaStreamDestroy(stream);
  return 0;
}

int main() {
  gpu::StackDeviceMemory mem(0, 64 << 20);
  float q[4 * 8] = {};
  float out[4];
  return searchBatch(mem, q, 4, 8, out);
}
