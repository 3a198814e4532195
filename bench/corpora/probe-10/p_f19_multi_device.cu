// Data-parallel setup: per-device streams and buffers created in one loop over
// devices and released in a second loop; partial setup unwound on failure.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int kMaxDevices = 16;

__global__ void grad_scale(float *g, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] *= s;
}

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) return 0;
  if (ndev > kMaxDevices) ndev = kMaxDevices;
  const int n = 1 << 20;

  cudaStream_t streams[kMaxDevices];
  float *grads[kMaxDevices];
  int created = 0;
  bool ok = true;
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    if (cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking) != cudaSuccess) {
      ok = false;
      break;
    }
    if (cudaMalloc(&grads[d], n * sizeof(float)) != cudaSuccess) {
      cudaStreamDestroy(streams[d]);
      ok = false;
      break;
    }
    created = d + 1;
  }

  if (ok) {
    // ndev >= 1 here, so this loop runs at least once.
    for (int d = 0; d < ndev; ++d) {
      cudaSetDevice(d);
      cudaMemsetAsync(grads[d], 0, n * sizeof(float), streams[d]);
      grad_scale<<<(n + 255) / 256, 256, 0, streams[d]>>>(grads[d], n, 1.f / ndev);
    }
    for (int d = 0; d < ndev; ++d) {
      cudaSetDevice(d);
      cudaStreamSynchronize(streams[d]);
    }
  }

  for (int d = created - 1; d >= 0; --d) {
    cudaSetDevice(d);
    cudaFree(grads[d]);
    cudaStreamDestroy(streams[d]);
  }

  std::vector<cudaEvent_t> done(ndev, nullptr);
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaEventCreateWithFlags(&done[d], cudaEventDisableTiming);
  }
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    if (done[d]) cudaEventDestroy(done[d]);
  }
  std::printf("%s on %d devices\n", ok ? "ok" : "failed", ndev);
  return ok ? 0 : 1;
}
