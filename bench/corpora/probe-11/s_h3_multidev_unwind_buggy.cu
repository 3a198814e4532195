#define BUGGY
// PLANTED: cudagraph-handle-leak line 35
// Per-device communicator resources of a data-parallel trainer: every GPU gets
// a high-priority comm stream, a "grads ready" event and a pinned flag word.
// init() must leave nothing behind if any device fails.
#include <cuda_runtime.h>
#include <array>
#include <cstdio>

#define MAX_GPUS 8

#define COMM_LOG_ERR(x)                                                        \
  std::fprintf(stderr, "comm init: %s failed (%s)\n", #x, cudaGetErrorString(x))

struct DeviceComm {
  int device = -1;
  cudaStream_t comm_stream = nullptr;
  cudaEvent_t grads_ready = nullptr;
  volatile int *flag = nullptr;  // pinned, mapped
};

class CommResources {
 public:
  ~CommResources() { shutdown(); }

  cudaError_t init(int ndev) {
    if (ndev > MAX_GPUS) return cudaErrorInvalidValue;
    int lo = 0, hi = 0;
    for (int d = 0; d < ndev; ++d) {
      DeviceComm &c = devs_[d];
      cudaError_t st = cudaSetDevice(d);
      if (st == cudaSuccess) st = cudaDeviceGetStreamPriorityRange(&lo, &hi);
      if (st == cudaSuccess)
        st = cudaStreamCreateWithPriority(&c.comm_stream, cudaStreamNonBlocking, hi);
      if (st != cudaSuccess) { unwind(d); return st; }
      st = cudaEventCreateWithFlags(&c.grads_ready, cudaEventDisableTiming);  // EXPECT: cudagraph-handle-leak
      if (st != cudaSuccess) {
        cudaStreamDestroy(c.comm_stream);
        unwind(d);
        return st;
      }
      st = cudaHostAlloc((void **)&c.flag, sizeof(int), cudaHostAllocMapped);
      if (st != cudaSuccess) {
#ifndef BUGGY
        cudaEventDestroy(c.grads_ready);
#endif
        cudaStreamDestroy(c.comm_stream);
        unwind(d);
        return st;
      }
      *c.flag = 0;
      c.device = d;
    }
    ndev_ = ndev;
    return cudaSuccess;
  }

  void shutdown() {
    unwind(ndev_);
    ndev_ = 0;
  }

  cudaStream_t stream(int d) const { return devs_[d].comm_stream; }
  cudaEvent_t ready(int d) const { return devs_[d].grads_ready; }

 private:
  // Releases the resources of devices [0, count).
  void unwind(int count) {
    for (int d = count - 1; d >= 0; --d) {
      DeviceComm &c = devs_[d];
      cudaSetDevice(d);
      cudaFreeHost((void *)c.flag);
      cudaEventDestroy(c.grads_ready);
      cudaStreamDestroy(c.comm_stream);
      c = DeviceComm{};
    }
  }

  std::array<DeviceComm, MAX_GPUS> devs_{};
  int ndev_ = 0;
};

__global__ void scale_grads(float *g, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] *= s;
}

int train_step_all(float **grads, int n, int ndev) {
  CommResources comm;
  cudaError_t st = comm.init(ndev);
  if (st != cudaSuccess) {
    COMM_LOG_ERR(st);
    return 1;
  }
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    scale_grads<<<(n + 255) / 256, 256, 0, comm.stream(d)>>>(grads[d], n, 1.f / ndev);
    cudaEventRecord(comm.ready(d), comm.stream(d));
  }
  for (int d = 0; d < ndev; ++d) cudaEventSynchronize(comm.ready(d));
  return 0;
}
