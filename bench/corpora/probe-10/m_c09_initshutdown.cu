// PLANTED: none
// C++ class with init()/shutdown() instead of RAII; flags track what was acquired.
#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }

class Engine {
 public:
  bool init(int n) {
    n_ = n;
    if (cudaStreamCreate(&stream_) != cudaSuccess) return false;
    have_stream_ = true;
    if (cudaMalloc(&x_, n * sizeof(float)) != cudaSuccess) { shutdown(); return false; }
    if (cudaMalloc(&y_, n * sizeof(float)) != cudaSuccess) { shutdown(); return false; }
    if (cudaHostAlloc(&staging_, n * sizeof(float), cudaHostAllocDefault) != cudaSuccess) { shutdown(); return false; }
    return true;
  }
  void shutdown() {
    if (have_stream_) { cudaStreamSynchronize(stream_); cudaStreamDestroy(stream_); have_stream_ = false; }
    if (staging_) { cudaFreeHost(staging_); staging_ = nullptr; }
    if (y_) { cudaFree(y_); y_ = nullptr; }
    if (x_) { cudaFree(x_); x_ = nullptr; }
  }
  bool step(float a) {
    axpy<<<(n_ + 255) / 256, 256, 0, stream_>>>(a, x_, y_, n_);
    cudaMemcpyAsync(staging_, y_, n_ * sizeof(float), cudaMemcpyDeviceToHost, stream_);
    return cudaStreamSynchronize(stream_) == cudaSuccess;
  }
 private:
  cudaStream_t stream_ = nullptr;
  bool have_stream_ = false;
  float *x_ = nullptr, *y_ = nullptr, *staging_ = nullptr;
  int n_ = 0;
};

int main() {
  Engine e;
  if (!e.init(1 << 18)) return 1;
  bool ok = true;
  for (int i = 0; i < 3 && ok; ++i) ok = e.step(0.5f * i);
  e.shutdown();
  return ok ? 0 : 1;
}
