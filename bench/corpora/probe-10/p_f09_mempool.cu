// Stream-ordered allocator with an explicit memory pool, as used by an
// inference runtime for activations. Pool destroyed after a full sync.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__global__ void gelu(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.f + tanhf(0.79788456f * (v + 0.044715f * v * v * v)));
  }
}

class PoolAllocator {
 public:
  explicit PoolAllocator(int device) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    ok_ = cudaMemPoolCreate(&pool_, &props) == cudaSuccess;
    if (ok_) {
      uint64_t threshold = UINT64_MAX;
      cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
  }
  ~PoolAllocator() {
    if (ok_) {
      cudaDeviceSynchronize();
      cudaMemPoolDestroy(pool_);
    }
  }
  PoolAllocator(const PoolAllocator &) = delete;
  PoolAllocator &operator=(const PoolAllocator &) = delete;

  bool ok() const { return ok_; }
  void *allocate(size_t bytes, cudaStream_t s) {
    void *p = nullptr;
    if (cudaMallocFromPoolAsync(&p, bytes, pool_, s) != cudaSuccess) return nullptr;
    return p;
  }
  void deallocate(void *p, cudaStream_t s) { cudaFreeAsync(p, s); }

 private:
  cudaMemPool_t pool_ = nullptr;
  bool ok_ = false;
};

static int forward(PoolAllocator &alloc, cudaStream_t s, const float *in, float *out, int n) {
  float *tmp = static_cast<float *>(alloc.allocate(n * sizeof(float), s));
  if (tmp == nullptr) return -1;
  gelu<<<(n + 255) / 256, 256, 0, s>>>(in, tmp, n);
  gelu<<<(n + 255) / 256, 256, 0, s>>>(tmp, out, n);
  alloc.deallocate(tmp, s);
  return 0;
}

int main() {
  PoolAllocator alloc(0);
  if (!alloc.ok()) return 1;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const int n = 1 << 18;
  float *in = nullptr, *out = nullptr;
  cudaMallocAsync(&in, n * sizeof(float), s);
  cudaMallocAsync(&out, n * sizeof(float), s);
  cudaMemsetAsync(in, 0, n * sizeof(float), s);
  int rc = 0;
  for (int layer = 0; layer < 12 && rc == 0; ++layer) rc = forward(alloc, s, in, out, n);
  float probe = 0.f;
  cudaMemcpyAsync(&probe, out, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(in, s);
  cudaFreeAsync(out, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  std::printf("probe=%f rc=%d\n", probe, rc);
  return rc;
}
