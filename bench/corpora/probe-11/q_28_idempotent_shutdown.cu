// GROMACS/OpenMM-style device context with an idempotent shutdown(): the
// destructor calls shutdown(), which returns early when the context was
// already shut down (or never came up). reinit() shuts down and rebuilds.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void integrate(float *x, const float *v, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * v[i];
}

class DeviceStreamManager {
 public:
  explicit DeviceStreamManager(int n) : n_(n) { alive_ = create(); }
  ~DeviceStreamManager() { shutdown(); }
  DeviceStreamManager(const DeviceStreamManager &) = delete;
  DeviceStreamManager &operator=(const DeviceStreamManager &) = delete;

  bool alive() const { return alive_; }

  void shutdown() {
    if (!alive_) return;
    alive_ = false;
    cudaStreamSynchronize(local_);
    cudaStreamSynchronize(nonlocal_);
    cudaEventDestroy(nonlocalDone_);
    cudaFree(v_);
    cudaFree(x_);
    cudaStreamDestroy(nonlocal_);
    cudaStreamDestroy(local_);
  }

  bool reinit(int n) {
    shutdown();
    n_ = n;
    alive_ = create();
    return alive_;
  }

  void step(float dt) {
    int half = n_ / 2, b = (half + 255) / 256;
    integrate<<<b, 256, 0, local_>>>(x_, v_, half, dt);
    integrate<<<b, 256, 0, nonlocal_>>>(x_ + half, v_ + half, n_ - half, dt);
    cudaEventRecord(nonlocalDone_, nonlocal_);
    cudaStreamWaitEvent(local_, nonlocalDone_, 0);
  }

 private:
  bool create() {
    if (cudaStreamCreateWithFlags(&local_, cudaStreamNonBlocking) != cudaSuccess) return false;
    if (cudaStreamCreateWithFlags(&nonlocal_, cudaStreamNonBlocking) != cudaSuccess) {
      cudaStreamDestroy(local_);
      return false;
    }
    if (cudaMalloc(&x_, n_ * sizeof(float)) != cudaSuccess) {
      cudaStreamDestroy(nonlocal_);
      cudaStreamDestroy(local_);
      return false;
    }
    if (cudaMalloc(&v_, n_ * sizeof(float)) != cudaSuccess) {
      cudaFree(x_);
      cudaStreamDestroy(nonlocal_);
      cudaStreamDestroy(local_);
      return false;
    }
    if (cudaEventCreateWithFlags(&nonlocalDone_, cudaEventDisableTiming) != cudaSuccess) {
      cudaFree(v_);
      cudaFree(x_);
      cudaStreamDestroy(nonlocal_);
      cudaStreamDestroy(local_);
      return false;
    }
    cudaMemsetAsync(x_, 0, n_ * sizeof(float), local_);
    cudaMemsetAsync(v_, 0, n_ * sizeof(float), local_);
    cudaEventRecord(nonlocalDone_, local_);
    cudaStreamWaitEvent(nonlocal_, nonlocalDone_, 0);
    return true;
  }

  int n_;
  bool alive_ = false;
  cudaStream_t local_ = nullptr;
  cudaStream_t nonlocal_ = nullptr;
  cudaEvent_t nonlocalDone_ = nullptr;
  float *x_ = nullptr;
  float *v_ = nullptr;
};

int main() {
  DeviceStreamManager mgr(1 << 16);
  if (!mgr.alive()) return 1;
  for (int s = 0; s < 100; ++s) mgr.step(0.001f);
  if (!mgr.reinit(1 << 17)) return 1;
  for (int s = 0; s < 100; ++s) mgr.step(0.001f);
  mgr.shutdown();
  return 0;
}
