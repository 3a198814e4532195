// One exec per device.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int kMaxDevices = 8;

// Correct: local array, destroyed in a second loop over the same range.
void broadcast_step(cudaGraph_t const *graphs, cudaStream_t const *streams, int ndev) {
  cudaGraphExec_t execs[kMaxDevices] = {};
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaGraphInstantiate(&execs[d], graphs[d], 0);
    cudaGraphLaunch(execs[d], streams[d]);
  }
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaStreamSynchronize(streams[d]);
    if (execs[d])
      cudaGraphExecDestroy(execs[d]);
  }
}

// Buggy: a failure on device d returns and leaks devices 0..d-1.
bool broadcast_step_checked(cudaGraph_t const *graphs, cudaStream_t const *streams, int ndev) {
  cudaGraphExec_t execs[kMaxDevices] = {};
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    if (cudaGraphInstantiate(&execs[d], graphs[d], 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      return false;
  }
  for (int d = 0; d < ndev; ++d)
    cudaGraphLaunch(execs[d], streams[d]);
  for (int d = 0; d < ndev; ++d) {
    cudaStreamSynchronize(streams[d]);
    cudaGraphExecDestroy(execs[d]);
  }
  return true;
}

class MultiGpuRunner {
public:
  ~MultiGpuRunner() {
    for (int d = 0; d < ndev_; ++d) {
      cudaSetDevice(d);
      if (execs_[d])
        cudaGraphExecDestroy(execs_[d]);
    }
  }
  // Correct: member array.
  bool init(cudaGraph_t const *graphs, int ndev) {
    ndev_ = ndev;
    for (int d = 0; d < ndev; ++d) {
      cudaSetDevice(d);
      if (cudaGraphInstantiate(&execs_[d], graphs[d], 0) != cudaSuccess)
        return false;
    }
    return true;
  }

private:
  int ndev_ = 0;
  cudaGraphExec_t execs_[kMaxDevices] = {};
};
