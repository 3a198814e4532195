// Templated device buffer and a function template that allocates scratch,
// runs a reduction and frees it on every path.
#include <cuda_runtime.h>
#include <cstdio>
#include <type_traits>
#include <utility>

template <typename T>
__global__ void reduce_kernel(const T *in, T *out, int n) {
  __shared__ T buf[256];
  int t = threadIdx.x;
  T v = T(0);
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
  buf[t] = v;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, buf[0]);
}

template <typename T>
class DeviceArray {
  static_assert(std::is_trivially_copyable<T>::value, "POD only");

 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n) : n_(n) {
    if (n_ && cudaMalloc(&p_, n_ * sizeof(T)) != cudaSuccess) {
      p_ = nullptr;
      n_ = 0;
    }
  }
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(DeviceArray &&o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceArray &operator=(DeviceArray &&o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  T *data() { return p_; }
  size_t size() const { return n_; }

 private:
  T *p_ = nullptr;
  size_t n_ = 0;
};

template <typename T>
cudaError_t device_sum(const T *d_in, int n, T *result, cudaStream_t s) {
  T *d_out = nullptr;
  cudaError_t st = cudaMalloc(&d_out, sizeof(T));
  if (st != cudaSuccess) return st;
  st = cudaMemsetAsync(d_out, 0, sizeof(T), s);
  if (st == cudaSuccess) {
    reduce_kernel<T><<<64, 256, 0, s>>>(d_in, d_out, n);
    st = cudaGetLastError();
  }
  if (st == cudaSuccess) st = cudaMemcpyAsync(result, d_out, sizeof(T), cudaMemcpyDeviceToHost, s);
  if (st == cudaSuccess) st = cudaStreamSynchronize(s);
  cudaFree(d_out);
  return st;
}

template <typename T>
DeviceArray<T> make_filled(size_t n, T value) {
  T *host = new T[n];
  for (size_t i = 0; i < n; ++i) host[i] = value;
  DeviceArray<T> d(n);
  if (d.size() == n) cudaMemcpy(d.data(), host, n * sizeof(T), cudaMemcpyHostToDevice);
  delete[] host;
  return d;
}

int main() {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  int rc = 0;
  {
    DeviceArray<float> a = make_filled<float>(1 << 16, 1.0f);
    DeviceArray<int> b = make_filled<int>(1000, 3);
    DeviceArray<float> c;
    c = std::move(a);
    float fs = 0.f;
    int is = 0;
    if (device_sum(c.data(), (int)c.size(), &fs, s) != cudaSuccess) rc = 1;
    if (device_sum(b.data(), (int)b.size(), &is, s) != cudaSuccess) rc = 1;
    std::printf("%f %d\n", fs, is);
  }
  cudaStreamDestroy(s);
  return rc;
}
